#include "engine/fetched_event.h"

#include <simdjson.h>

#include <charconv>

#include "common/time_format.h"
#include "engine/base64.h"

namespace pagesieve::engine {
namespace {

using simdjson::ondemand::json_type;
using simdjson::ondemand::value;

Status JsonError(simdjson::error_code code) {
  return Status::InvalidArgument(std::string("invalid JSON: ") + simdjson::error_message(code));
}

bool LooksLikeObject(std::string_view json) {
  const size_t first = json.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && json[first] == '{';
}

Status FieldError(std::string_view field, std::string_view what) {
  return Status::InvalidArgument("field '" + std::string(field) + "' " + std::string(what));
}

StatusOr<std::string> ReadString(value v, std::string_view field) {
  std::string_view s;
  if (v.get_string().get(s)) return FieldError(field, "must be a string");
  return std::string(s);
}

// A string, or a number rendered as text (event ids are often integers).
StatusOr<std::string> ReadId(value v, std::string_view field) {
  json_type type;
  if (auto err = v.type().get(type)) return JsonError(err);
  if (type == json_type::number) {
    std::string_view raw = v.raw_json_token();
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\t' ||
                            raw.back() == '\r')) {
      raw.remove_suffix(1);
    }
    return std::string(raw);
  }
  return ReadString(v, field);
}

StatusOr<EventTime> ReadEventTime(value v, std::string_view field) {
  json_type type;
  if (auto err = v.type().get(type)) return JsonError(err);
  if (type == json_type::number) {
    int64_t millis;
    if (v.get_int64().get(millis)) return FieldError(field, "must be integer epoch milliseconds");
    return EventTimeFromMillis(millis);
  }
  std::string_view text;
  if (v.get_string().get(text)) {
    return FieldError(field, "must be an RFC 3339 string or integer epoch milliseconds");
  }
  StatusOr<EventTime> t = ParseRfc3339(text);
  if (!t.ok()) return t.status().WithContext("field '" + std::string(field) + "'");
  return t;
}

StatusOr<int> ReadStatus(value v, std::string_view field) {
  json_type type;
  if (auto err = v.type().get(type)) return JsonError(err);
  int64_t status = 0;
  if (type == json_type::number) {
    if (v.get_int64().get(status)) return FieldError(field, "must be an integer");
  } else {
    std::string_view text;
    if (v.get_string().get(text)) return FieldError(field, "must be an integer");
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), status);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return FieldError(field, "must be an integer");
    }
  }
  if (status < 0 || status > 999) return FieldError(field, "is not an HTTP status");
  return static_cast<int>(status);
}

// Fills one field of `event` from `v` if `key` names one of ours.
Status ReadField(std::string_view key, value v, const EventFieldNames& names,
                 FetchedEvent* event, std::optional<std::string>* body_base64) {
  bool is_null = false;
  if (auto err = v.is_null().get(is_null)) return JsonError(err);
  if (is_null) return Status::Ok();  // null means absent
  if (key == names.url) {
    PS_ASSIGN_OR_RETURN(event->url, ReadString(v, key));
  } else if (key == names.fetched_at) {
    PS_ASSIGN_OR_RETURN(event->fetched_at, ReadEventTime(v, key));
  } else if (key == names.status) {
    PS_ASSIGN_OR_RETURN(event->status, ReadStatus(v, key));
  } else if (key == names.content_type) {
    PS_ASSIGN_OR_RETURN(event->content_type, ReadString(v, key));
  } else if (key == names.body) {
    PS_ASSIGN_OR_RETURN(event->body, ReadString(v, key));
  } else if (key == names.body_base64) {
    PS_ASSIGN_OR_RETURN(*body_base64, ReadString(v, key));
  } else if (key == names.text) {
    PS_ASSIGN_OR_RETURN(event->text, ReadString(v, key));
  } else if (key == names.event_id) {
    PS_ASSIGN_OR_RETURN(event->event_id, ReadId(v, key));
  } else if (key == names.key) {
    PS_ASSIGN_OR_RETURN(event->key, ReadId(v, key));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<EventFieldNames> EventFieldNamesFromConfig(const Config& config) {
  EventFieldNames names;
  const std::pair<const char*, std::string*> fields[] = {
      {"event.fields.url", &names.url},
      {"event.fields.fetched_at", &names.fetched_at},
      {"event.fields.status", &names.status},
      {"event.fields.content_type", &names.content_type},
      {"event.fields.body", &names.body},
      {"event.fields.body_base64", &names.body_base64},
      {"event.fields.text", &names.text},
      {"event.fields.event_id", &names.event_id},
      {"event.fields.key", &names.key}};
  for (const auto& [key, target] : fields) {
    PS_ASSIGN_OR_RETURN(*target, config.GetString(key));
    if (target->empty()) return Status::InvalidArgument(std::string(key) + " must not be empty");
  }
  return names;
}

StatusOr<FetchedEvent> ParseFetchedEvent(std::string_view json, const EventFieldNames& names) {
  if (!LooksLikeObject(json)) return Status::InvalidArgument("not a JSON object");
  // One parser per thread: it keeps its buffers between events.
  thread_local simdjson::ondemand::parser parser;
  simdjson::padded_string padded(json);
  simdjson::ondemand::document doc;
  if (auto err = parser.iterate(padded).get(doc)) return JsonError(err);
  simdjson::ondemand::object object;
  if (auto err = doc.get_object().get(object)) return JsonError(err);

  FetchedEvent event;
  std::optional<std::string> body_base64;
  for (auto field : object) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return JsonError(err);
    PS_RETURN_IF_ERROR(ReadField(key, field.value(), names, &event, &body_base64));
  }
  // current_location() fails exactly when the whole input was consumed.
  if (const char* trailing; !doc.current_location().get(trailing)) {
    return Status::InvalidArgument("invalid JSON: trailing content after the object");
  }
  if (event.url.empty()) return Status::InvalidArgument("no '" + names.url + "' field");
  if (body_base64) {
    StatusOr<std::string> body = DecodeBase64(*body_base64);
    if (!body.ok()) return body.status().WithContext("field '" + names.body_base64 + "'");
    event.body = std::move(body).value();
  }
  return event;
}

}  // namespace pagesieve::engine
