#include "kafka/output_messages.h"

#include <simdjson.h>

#include "engine/repartition_record.h"

namespace pagesieve::kafka {
namespace {

const std::string& TopicFor(engine::VerdictKind kind, const OutputTopics& topics) {
  switch (kind) {
    case engine::VerdictKind::kUnique:
      return topics.unique;
    case engine::VerdictKind::kDuplicate:
      return topics.duplicate;
    case engine::VerdictKind::kSkipped:
      return topics.skipped;
  }
  return topics.unique;
}

// The raw JSON (quotes and escapes as sent) of the event's body field, so it
// is forwarded without decoding and encoding it again.
std::optional<std::pair<std::string, std::string>> RawBody(const std::string& event_json,
                                                           const std::string& body_field,
                                                           const std::string& base64_field) {
  thread_local simdjson::ondemand::parser parser;
  simdjson::padded_string padded(event_json);
  simdjson::ondemand::document doc;
  simdjson::ondemand::object object;
  if (parser.iterate(padded).get(doc) || doc.get_object().get(object)) return std::nullopt;
  std::optional<std::pair<std::string, std::string>> found;
  for (auto field : object) {
    std::string_view key;
    if (field.unescaped_key().get(key)) return std::nullopt;
    if (key != body_field && key != base64_field) continue;
    std::string_view raw = field.value().raw_json_token();
    while (!raw.empty() && raw.back() != '"') raw.remove_suffix(1);  // trailing whitespace
    // body_base64 wins over body, as it does in the engine.
    if (!found || key == base64_field) found.emplace(std::string(key), std::string(raw));
  }
  return found;
}

}  // namespace

OutputMessage VerdictMessage(const engine::Verdict& verdict, const SourceRecord& input,
                             const OutputTopics& topics, const std::string& body_field,
                             const std::string& body_base64_field) {
  const std::optional<engine::ForwardedFields>& forwarded = verdict.record.forwarded;
  const engine::VerdictKind kind = verdict.decision.kind;
  OutputMessage m;
  m.topic = TopicFor(kind, topics);
  m.key = forwarded ? forwarded->key : input.key;
  m.value = engine::EncodeVerdictJson(verdict);
  if (topics.include_body && kind == engine::VerdictKind::kUnique) {
    std::optional<std::pair<std::string, std::string>> body;
    if (!forwarded) {
      body = RawBody(input.value, body_field, body_base64_field);
    } else if (forwarded->body_field) {
      body.emplace(*forwarded->body_field, forwarded->body_json);
    }
    if (body) {
      m.value.pop_back();  // the closing brace
      m.value += ",\"" + body->first + "\":" + body->second + "}";
    }
  }
  m.headers.emplace_back(kVerdictHeader, std::string(engine::VerdictKindName(kind)));
  if (verdict.decision.tier) {
    m.headers.emplace_back(kTierHeader, std::string(engine::TierName(*verdict.decision.tier)));
  }
  return m;
}

OutputMessage RepartitionMessage(engine::PreparedRecord record, const SourceRecord& input,
                                 const std::string& topic, bool include_body,
                                 const std::string& body_field,
                                 const std::string& body_base64_field) {
  engine::ForwardedFields& forwarded = record.forwarded.emplace();
  forwarded.key = input.key;
  // Only a unique verdict carries the body, and whether it will be unique is
  // the next stage's call: every accepted page carries it then.
  if (include_body && !record.skipped()) {
    if (auto body = RawBody(input.value, body_field, body_base64_field)) {
      forwarded.body_field = std::move(body->first);
      forwarded.body_json = std::move(body->second);
    }
  }
  OutputMessage m;
  m.topic = topic;
  m.key = record.scope;
  m.value = engine::EncodeRepartitionRecord(record);
  return m;
}

OutputMessage DeadLetterMessage(const SourceRecord& input, const Status& error,
                                const OutputTopics& topics) {
  OutputMessage m;
  m.topic = topics.dead_letter;
  m.key = input.key;
  m.value = input.value;
  m.headers = input.headers;
  m.headers.emplace_back(kErrorHeader, error.message());
  m.headers.emplace_back(kSourceTopicHeader, input.stream);
  m.headers.emplace_back(kSourcePartitionHeader, std::to_string(input.partition.value()));
  m.headers.emplace_back(kSourceOffsetHeader, std::to_string(input.offset.value()));
  return m;
}

}  // namespace pagesieve::kafka
