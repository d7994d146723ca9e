#pragma once

#include "common/status.h"
#include "engine/record.h"
#include "engine/verdict.h"
#include "kafka/kafka_options.h"
#include "run/records.h"

namespace pagesieve::run {

// Header names on output messages, so consumers can filter without parsing.
inline constexpr char kVerdictHeader[] = "pagesieve-verdict";  // unique|duplicate|skipped
inline constexpr char kTierHeader[] = "pagesieve-tier";        // url|exact|near (duplicates)
inline constexpr char kErrorHeader[] = "pagesieve-error";
inline constexpr char kSourceTopicHeader[] = "pagesieve-source-topic";
inline constexpr char kSourcePartitionHeader[] = "pagesieve-source-partition";
inline constexpr char kSourceOffsetHeader[] = "pagesieve-source-offset";

// The verdict for `input`, to the topic of its kind, keyed by the input's
// key. With include_body, a unique verdict also carries the page: the
// event's "body" or "body_base64" copied as is (`body_field` names it).
// A re-keyed record (`forwarded`) takes its key and body from there: the
// original event's, not the repartition record's.
OutputMessage VerdictMessage(const engine::Verdict& verdict, const ConsumedRecord& input,
                             const kafka::OutputTopics& topics, const std::string& body_field,
                             const std::string& body_base64_field,
                             const std::optional<engine::ForwardedFields>& forwarded = std::nullopt);

// The re-keying stage's record for a prepared event (docs/rekey.md), to
// `topic`, keyed by the event's scope so each scope's records share a
// partition. It carries the input's key, and its body when include_body
// needs it for a unique verdict.
OutputMessage RepartitionMessage(engine::PreparedRecord record, const ConsumedRecord& input,
                                 const std::string& topic, bool include_body,
                                 const std::string& body_field,
                                 const std::string& body_base64_field);

// A rejected record for the dead-letter topic: its original key, value and
// headers, plus headers saying why and where it came from.
OutputMessage DeadLetterMessage(const ConsumedRecord& input, const Status& error,
                                const kafka::OutputTopics& topics);

}  // namespace pagesieve::run
