#include "routed/routed_output.h"

#include "routing/message_codec.h"

namespace pagesieve::routed {

pipeline::OutputMessage ToPartition(const std::string& topic, PartitionId to,
                                    const routing::Message& message) {
  pipeline::OutputMessage m;
  m.topic = topic;
  m.value = routing::EncodeMessage(message);
  m.partition = to.value();
  return m;
}

void Broadcast(const std::string& topic, int32_t partitions, const routing::Progress& progress,
               std::vector<pipeline::OutputMessage>* out) {
  const routing::Message message = progress;
  for (int32_t p = 0; p < partitions; ++p) out->push_back(ToPartition(topic, PartitionId(p), message));
}

void AppendOutbox(routing::Outbox& outbox, const kafka::RoutingOptions& routing,
                  const pipeline::OutputFormat& format, engine::VerdictCounts& counts,
                  std::vector<pipeline::OutputMessage>* out) {
  // Verdicts of routed records carry their input's key and body themselves
  // (engine::ForwardedFields): there is no input record to take them from.
  const pipeline::SourceRecord none;
  for (const engine::Verdict& v : outbox.verdicts) {
    counts.Add(v);
    out->push_back(format.Verdict(v, none));
  }
  for (auto& [to, m] : outbox.records) out->push_back(ToPartition(routing.content_topic, to, std::move(m)));
  for (auto& [to, m] : outbox.probes) out->push_back(ToPartition(routing.near_topic, to, std::move(m)));
  for (auto& [to, m] : outbox.answers) out->push_back(ToPartition(routing.content_topic, to, std::move(m)));
  for (auto& [to, m] : outbox.outcomes) out->push_back(ToPartition(routing.near_topic, to, std::move(m)));
  for (auto& [to, m] : outbox.touches) out->push_back(ToPartition(routing.near_topic, to, std::move(m)));
}

}  // namespace pagesieve::routed
