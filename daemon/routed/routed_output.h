#pragma once

#include <array>
#include <string>
#include <variant>
#include <vector>

#include "engine/verdict_counts.h"
#include "kafka/kafka_options.h"
#include "metrics/family.h"
#include "pipeline/output_format.h"
#include "pipeline/output_message.h"
#include "routing/message_codec.h"
#include "routing/messages.h"

namespace pagesieve::routed {

// What the routed stages send, as Kafka messages (docs/global-routing.md,
// "How the stages run on Kafka"): each message of the protocol goes to the
// one partition of the internal topic that owns it, in its encoding
// (routing/message_codec.h); verdicts go to the output topics as any
// verdict does.

// Counts what a routed stage sends on the internal topics, messages and
// bytes by kind (pagesieve_routed_messages_total and
// pagesieve_routed_message_bytes_total, docs/metrics.md). The families may
// be null (nothing counted).
class SentCounters {
 public:
  SentCounters(metrics::CounterFamily* messages, metrics::CounterFamily* bytes);
  void Count(const routing::Message& message, size_t bytes) const;

 private:
  static constexpr size_t kKinds = std::variant_size_v<routing::Message>;
  std::array<metrics::Counter*, kKinds> messages_{};
  std::array<metrics::Counter*, kKinds> bytes_{};
};

// The name of a message's kind in metrics and logs ("record", "probe", ...).
const char* KindName(size_t variant_index);

// A protocol message for partition `to` of `topic`, counted.
pipeline::OutputMessage ToPartition(const std::string& topic, PartitionId to,
                                    const routing::Message& message, const SentCounters& sent);

// `progress` for every partition of `topic` (a promise is to all of them).
void Broadcast(const std::string& topic, int32_t partitions, const routing::Progress& progress,
               const SentCounters& sent, std::vector<pipeline::OutputMessage>* out);

// An owner's step, but for its progress (which the stage sends once per
// round: the latest supersedes the others): verdicts in `format`, counted
// into `counts`, and every addressed message to its internal topic.
void AppendOutbox(routing::Outbox& outbox, const kafka::RoutingOptions& routing,
                  const pipeline::OutputFormat& format, const SentCounters& sent,
                  engine::VerdictCounts& counts, std::vector<pipeline::OutputMessage>* out);

}  // namespace pagesieve::routed
