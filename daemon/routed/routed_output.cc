#include "routed/routed_output.h"

#include <iterator>

#include "routing/message_codec.h"

namespace pagesieve::routed {

const char* KindName(size_t variant_index) {
  static const char* const kNames[] = {"record",  "progress", "probe", "answer",
                                       "outcome", "touch",    "fetch", "fetch_reply"};
  static_assert(std::size(kNames) == std::variant_size_v<routing::Message>);
  return variant_index < std::size(kNames) ? kNames[variant_index] : "unknown";
}

SentCounters::SentCounters(metrics::CounterFamily* messages, metrics::CounterFamily* bytes) {
  for (size_t k = 0; k < kKinds; ++k) {
    if (messages != nullptr) messages_[k] = &messages->WithLabels({KindName(k)});
    if (bytes != nullptr) bytes_[k] = &bytes->WithLabels({KindName(k)});
  }
}

void SentCounters::Count(const routing::Message& message, size_t bytes) const {
  const size_t k = message.index();
  if (messages_[k] != nullptr) messages_[k]->Increment();
  if (bytes_[k] != nullptr) bytes_[k]->Increment(static_cast<double>(bytes));
}

pipeline::OutputMessage ToPartition(const std::string& topic, PartitionId to,
                                    const routing::Message& message, const SentCounters& sent) {
  pipeline::OutputMessage m;
  m.topic = topic;
  m.value = routing::EncodeMessage(message);
  m.partition = to.value();
  sent.Count(message, m.value.size());
  return m;
}

void Broadcast(const std::string& topic, int32_t partitions, const routing::Progress& progress,
               const SentCounters& sent, std::vector<pipeline::OutputMessage>* out) {
  const routing::Message message = progress;
  for (int32_t p = 0; p < partitions; ++p) {
    out->push_back(ToPartition(topic, PartitionId(p), message, sent));
  }
}

void AppendOutbox(routing::Outbox& outbox, const kafka::RoutingOptions& routing,
                  const pipeline::OutputFormat& format, const SentCounters& sent,
                  engine::VerdictCounts& counts, std::vector<pipeline::OutputMessage>* out) {
  // Verdicts of routed records carry their input's key and body themselves
  // (engine::ForwardedFields): there is no input record to take them from.
  const pipeline::SourceRecord none;
  for (const engine::Verdict& v : outbox.verdicts) {
    counts.Add(v);
    out->push_back(format.Verdict(v, none));
  }
  auto send = [&](const std::string& topic, PartitionId to, routing::Message m) {
    out->push_back(ToPartition(topic, to, std::move(m), sent));
  };
  for (auto& [to, m] : outbox.records) send(routing.content_topic, to, std::move(m));
  for (auto& [to, m] : outbox.probes) send(routing.near_topic, to, std::move(m));
  for (auto& [to, m] : outbox.answers) send(routing.content_topic, to, std::move(m));
  for (auto& [to, m] : outbox.outcomes) send(routing.near_topic, to, std::move(m));
  for (auto& [to, m] : outbox.touches) send(routing.near_topic, to, std::move(m));
  for (auto& [to, m] : outbox.fetches) send(routing.near_topic, to, std::move(m));
  for (auto& [to, m] : outbox.fetch_replies) send(routing.content_topic, to, std::move(m));
}

}  // namespace pagesieve::routed
