#pragma once

#include "common/status.h"
#include "engine/prepared_record.h"
#include "engine/verdict.h"
#include "kafka/kafka_options.h"
#include "pipeline/output_format.h"
#include "pipeline/output_message.h"
#include "pipeline/source_record.h"

namespace pagesieve::kafka {

using pipeline::OutputMessage;
using pipeline::SourceRecord;

// Header names on output messages, so consumers can filter without parsing.
inline constexpr char kVerdictHeader[] = "pagesieve-verdict";  // unique|duplicate|skipped
inline constexpr char kTierHeader[] = "pagesieve-tier";        // url|exact|near (duplicates)
inline constexpr char kErrorHeader[] = "pagesieve-error";
inline constexpr char kSourceTopicHeader[] = "pagesieve-source-topic";
inline constexpr char kSourcePartitionHeader[] = "pagesieve-source-partition";
inline constexpr char kSourceOffsetHeader[] = "pagesieve-source-offset";
// On a dead letter whose record was cut to fit the topic: the whole size.
inline constexpr char kValueTruncatedHeader[] = "pagesieve-value-truncated";

// The verdict for `input`, to the topic of its kind, keyed by the input's
// key. With include_body, a unique verdict also carries the page: the
// event's "body" or "body_base64" copied as is (`body_field` names it), or,
// when that would pass topics.max_message_bytes, "body_omitted_bytes".
// A re-keyed record (its `forwarded` fields) takes its key and body from
// there: the original event's, not the repartition record's.
OutputMessage VerdictMessage(const engine::Verdict& verdict, const SourceRecord& input,
                             const OutputTopics& topics, const std::string& body_field,
                             const std::string& body_base64_field);

// What a record carries from its input record to a verdict a later stage
// publishes (the re-keying and routed stages): the input's key, and its
// body when include_body needs it for a unique verdict and the encoded
// record still fits `max_message_bytes` (else the size it would have had).
void ForwardInputFields(engine::PreparedRecord& record, const SourceRecord& input,
                        bool include_body, int64_t max_message_bytes,
                        const std::string& body_field, const std::string& body_base64_field);

// The re-keying stage's record for a prepared event (docs/rekey.md), to
// `topic`, keyed by the event's scope so each scope's records share a
// partition. It carries the input's key, and its body when include_body
// needs it for a unique verdict and it fits `max_message_bytes`.
OutputMessage RepartitionMessage(engine::PreparedRecord record, const SourceRecord& input,
                                 const std::string& topic, bool include_body,
                                 int64_t max_message_bytes, const std::string& body_field,
                                 const std::string& body_base64_field);

// A rejected record for the dead-letter topic: its original key, value and
// headers, plus headers saying why and where it came from. A value that
// would pass topics.max_message_bytes is cut to fit, and says so.
OutputMessage DeadLetterMessage(const SourceRecord& input, const Status& error,
                                const OutputTopics& topics);

// pagesieve run's output format: the functions above.
class KafkaFormat final : public pipeline::OutputFormat {
 public:
  KafkaFormat(OutputTopics topics, std::string body_field, std::string body_base64_field)
      : topics_(std::move(topics)),
        body_field_(std::move(body_field)),
        body_base64_field_(std::move(body_base64_field)) {}

  OutputMessage Verdict(const engine::Verdict& verdict, const SourceRecord& input) const override {
    return VerdictMessage(verdict, input, topics_, body_field_, body_base64_field_);
  }
  OutputMessage DeadLetter(const SourceRecord& input, const Status& error) const override {
    return DeadLetterMessage(input, error, topics_);
  }

 private:
  const OutputTopics topics_;
  const std::string body_field_;
  const std::string body_base64_field_;
};

}  // namespace pagesieve::kafka
