#include "kafka/output_messages.h"

#include <simdjson.h>

#include <algorithm>

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
std::optional<std::pair<std::string, std::string>> RawBody(std::string_view event_json,
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

// What a message costs in a record batch besides its value: its key and
// headers, and the batch's and the record's framing (61 bytes and a few
// varints), with room to spare.
constexpr int64_t kFramingBytes = 256;

int64_t SizeWithout(const OutputMessage& m) {
  int64_t n = kFramingBytes + (m.key ? static_cast<int64_t>(m.key->size()) : 0);
  for (const auto& [name, value] : m.headers) n += name.size() + value.size() + 8;
  return n;
}

bool Fits(const OutputMessage& m, int64_t extra, int64_t limit) {
  return SizeWithout(m) + static_cast<int64_t>(m.value.size()) + extra <= limit;
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
  m.headers.emplace_back(kVerdictHeader, std::string(engine::VerdictKindName(kind)));
  if (verdict.decision.tier) {
    m.headers.emplace_back(kTierHeader, std::string(engine::TierName(*verdict.decision.tier)));
  }
  if (topics.include_body && kind == engine::VerdictKind::kUnique) {
    std::optional<std::pair<std::string, std::string>> body;
    // The body's size when it is left out (here or by the re-keying stage).
    int64_t omitted = forwarded ? forwarded->body_omitted_bytes.value_or(-1) : -1;
    if (!forwarded) {
      body = RawBody(input.value, body_field, body_base64_field);
    } else if (forwarded->body_field) {
      body.emplace(*forwarded->body_field, forwarded->body_json);
    }
    if (body && !Fits(m, body->first.size() + body->second.size() + 4, topics.max_message_bytes)) {
      omitted = static_cast<int64_t>(body->second.size());
      body.reset();
    }
    m.value.pop_back();  // the closing brace
    if (body) m.value += ",\"" + body->first + "\":" + body->second;
    if (omitted >= 0) m.value += ",\"body_omitted_bytes\":" + std::to_string(omitted);
    m.value += "}";
  }
  return m;
}

void ForwardInputFields(engine::PreparedRecord& record, const SourceRecord& input,
                        bool include_body, int64_t max_message_bytes,
                        const std::string& body_field, const std::string& body_base64_field) {
  engine::ForwardedFields& forwarded = record.forwarded.emplace();
  forwarded.key = input.key;
  // Only a unique verdict carries the body, and whether it will be unique is
  // a later stage's call: every accepted page carries it then.
  if (!include_body || record.skipped()) return;
  auto body = RawBody(input.value, body_field, body_base64_field);
  if (!body) return;
  forwarded.body_field = std::move(body->first);
  forwarded.body_json = std::move(body->second);
  OutputMessage m;
  m.key = record.scope;
  m.value = engine::EncodeRepartitionRecord(record);
  if (!Fits(m, 0, max_message_bytes)) {
    // The record goes on without its page; its verdict will say so.
    forwarded.body_omitted_bytes = static_cast<int64_t>(forwarded.body_json.size());
    forwarded.body_field.reset();
    forwarded.body_json.clear();
  }
}

OutputMessage RepartitionMessage(engine::PreparedRecord record, const SourceRecord& input,
                                 const std::string& topic, bool include_body,
                                 int64_t max_message_bytes, const std::string& body_field,
                                 const std::string& body_base64_field) {
  ForwardInputFields(record, input, include_body, max_message_bytes, body_field,
                     body_base64_field);
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
  m.headers = input.headers;
  m.headers.emplace_back(kErrorHeader, error.message());
  m.headers.emplace_back(kSourceTopicHeader, input.stream);
  m.headers.emplace_back(kSourcePartitionHeader, std::to_string(input.partition.value()));
  m.headers.emplace_back(kSourceOffsetHeader, std::to_string(input.offset.value()));
  // The input topic may take larger records than the dead-letter topic: the
  // copy keeps what fits, and the position headers find the whole record.
  const std::string original_size = std::to_string(input.value.size());
  if (Fits(m, input.value.size(), topics.max_message_bytes)) {
    m.value = input.value;
  } else {
    m.headers.emplace_back(kValueTruncatedHeader, original_size);
    const int64_t room = topics.max_message_bytes - SizeWithout(m);
    m.value = input.value.view().substr(0, static_cast<size_t>(std::max<int64_t>(room, 0)));
  }
  return m;
}

}  // namespace pagesieve::kafka
