#pragma once

#include <string>
#include <vector>

#include "engine/verdict_counts.h"
#include "kafka/kafka_options.h"
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

// A protocol message for partition `to` of `topic`.
pipeline::OutputMessage ToPartition(const std::string& topic, PartitionId to,
                                    const routing::Message& message);

// `progress` for every partition of `topic` (a promise is to all of them).
void Broadcast(const std::string& topic, int32_t partitions, const routing::Progress& progress,
               std::vector<pipeline::OutputMessage>* out);

// An owner's step, but for its progress (which the stage sends once per
// round: the latest supersedes the others): verdicts in `format`, counted
// into `counts`, and every addressed message to its internal topic.
void AppendOutbox(routing::Outbox& outbox, const kafka::RoutingOptions& routing,
                  const pipeline::OutputFormat& format, engine::VerdictCounts& counts,
                  std::vector<pipeline::OutputMessage>* out);

}  // namespace pagesieve::routed
