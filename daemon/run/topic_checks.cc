#include "run/topic_checks.h"

#include <spdlog/fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <map>
#include <string>
#include <thread>
#include <vector>

#include "common/duration.h"
#include "kafka/topic_admin.h"

namespace pagesieve::run {
namespace {

using TopicCounts = std::map<std::string, int32_t>;

StatusOr<TopicCounts> WaitForBroker(kafka::Consumer& consumer, const kafka::KafkaOptions& kafka,
                                    const Clock& clock, const std::atomic<bool>& stop_requested) {
  const auto deadline = clock.SteadyNow() + kafka.startup_timeout;
  for (;;) {
    StatusOr<TopicCounts> topics = consumer.TopicPartitions(std::chrono::seconds(2));
    if (topics.ok()) return topics;
    if (stop_requested.load()) return Status::Aborted("stopped while waiting for Kafka");
    if (clock.SteadyNow() >= deadline) {
      return Status::Unavailable("cannot reach Kafka at " + kafka.bootstrap_servers + " within " +
                                 FormatDuration(kafka.startup_timeout) + " (" +
                                 topics.status().message() + "; kafka.startup_timeout)");
    }
  }
}

int32_t PartitionsOf(const TopicCounts& topics, const std::string& name) {
  auto it = topics.find(name);
  return it == topics.end() ? 0 : it->second;
}

// Creates the changelog topic when it has no partitions (missing); refuses
// one whose partition count is not the input's.
Status EnsureChangelogTopic(const kafka::KafkaOptions& kafka, int32_t existing, int32_t input) {
  const std::string& topic = kafka.changelog.topic;
  if (existing == input) return Status::Ok();
  if (existing != 0) {
    return Status::FailedPrecondition(
        "changelog topic '" + topic + "' has " + std::to_string(existing) +
        " partitions, the input topic '" + kafka.input_topic + "' " + std::to_string(input) +
        ": the changelog needs one partition per input partition (changelog.topic)");
  }
  // Compacted: the latest record of each key is the state; tombstones of
  // expired entries remove them for good.
  spdlog::info("creating changelog topic {} ({} partitions, cleanup.policy = compact)", topic,
               input);
  const kafka::TopicAdmin admin(kafka.bootstrap_servers, kafka.common, kafka.startup_timeout);
  return admin.Create({topic}, input, {{"cleanup.policy", "compact"}})
      .WithContext("changelog.topic");
}

// The re-keying stage's output topic, created when it has no partitions.
Status EnsureRepartitionTopic(const kafka::KafkaOptions& kafka, int32_t existing, int32_t input) {
  if (existing > 0) return Status::Ok();  // any count: keys spread over what there is
  const int32_t partitions = kafka.rekey.partitions > 0 ? kafka.rekey.partitions : input;
  spdlog::info("creating repartition topic {} ({} partitions, retention {})", kafka.rekey.topic,
               partitions, FormatDuration(kafka.rekey.retention));
  const kafka::TopicAdmin admin(kafka.bootstrap_servers, kafka.common, kafka.startup_timeout);
  return admin
      .Create({kafka.rekey.topic}, partitions,
              {{"cleanup.policy", "delete"},
               {"retention.ms", std::to_string(kafka.rekey.retention.count())}})
      .WithContext("input.repartition_topic");
}

// Routed dedup's internal topics: created when missing (any routed stage
// may start first), refused when they exist with other partition counts
// (the owners place keys by the count).
Status EnsureRoutedTopics(const kafka::KafkaOptions& kafka, const TopicCounts& topics) {
  const kafka::RoutingOptions& r = kafka.routing;
  std::vector<std::string> missing;
  for (const std::string& topic : r.Topics()) {
    const int32_t existing = PartitionsOf(topics, topic);
    if (existing == 0) {
      missing.push_back(topic);
    } else if (existing != r.partitions) {
      return Status::FailedPrecondition(
          "routed dedup's topic '" + topic + "' has " + std::to_string(existing) +
          " partitions, routing.partitions says " + std::to_string(r.partitions) +
          ": every internal topic needs the same count (set routing.partitions to it, or use "
          "another kafka.group_id for new topics)");
    }
  }
  if (missing.empty()) return Status::Ok();
  spdlog::info("creating routed dedup's topics {} ({} partitions each, retention {})",
               fmt::join(missing, ", "), r.partitions, FormatDuration(r.retention));
  const kafka::TopicAdmin admin(kafka.bootstrap_servers, kafka.common, kafka.startup_timeout);
  return admin
      .Create(missing, r.partitions,
              {{"cleanup.policy", "delete"}, {"retention.ms", std::to_string(r.retention.count())}})
      .WithContext("routing.partitions");
}

}  // namespace

StatusOr<int32_t> CheckTopics(kafka::Consumer& consumer, const kafka::KafkaOptions& kafka,
                              StageKind stage, const Clock& clock,
                              const std::atomic<bool>& stop_requested, int32_t* events_partitions) {
  PS_ASSIGN_OR_RETURN(TopicCounts topics, WaitForBroker(consumer, kafka, clock, stop_requested));
  // An owner stage reads an internal topic, which may not exist yet: the
  // input it is about is the events' topic.
  const std::string& events = IsOwnerStage(stage) ? kafka.routing.input_topic : kafka.input_topic;
  const int32_t input = PartitionsOf(topics, events);
  if (input == 0) {
    return Status::FailedPrecondition("input topic '" + events +
                                      "' does not exist (kafka.input_topic)");
  }
  const std::pair<const char*, const std::string*> outputs[] = {
      {"output.unique", &kafka.output.unique},
      {"output.duplicate", &kafka.output.duplicate},
      {"output.skipped", &kafka.output.skipped},
      {"output.dead_letter", &kafka.output.dead_letter}};
  for (const auto& [key, topic] : outputs) {
    if (topics.count(*topic) == 0) {
      return Status::FailedPrecondition("output topic '" + *topic + "' does not exist (" + key +
                                        ")");
    }
  }
  if (stage == StageKind::kRekey) {
    PS_RETURN_IF_ERROR(
        EnsureRepartitionTopic(kafka, PartitionsOf(topics, kafka.rekey.topic), input));
  }
  if (kafka.routing.enabled) PS_RETURN_IF_ERROR(EnsureRoutedTopics(kafka, topics));
  if (events_partitions != nullptr) *events_partitions = input;
  // An owner stage's input is its internal topic, made just above if missing.
  const int32_t read = IsOwnerStage(stage) ? kafka.routing.partitions : input;
  if (kafka.changelog.enabled && stage != StageKind::kRekey) {
    PS_RETURN_IF_ERROR(
        EnsureChangelogTopic(kafka, PartitionsOf(topics, kafka.changelog.topic), read));
  }
  return read;
}

std::vector<std::string> WrittenTopics(const kafka::KafkaOptions& kafka, StageKind stage) {
  std::vector<std::string> written = kafka.output.All();
  if (stage == StageKind::kRekey) written.push_back(kafka.rekey.topic);
  if (kafka.routing.enabled) {
    for (const std::string& topic : kafka.routing.Topics()) written.push_back(topic);
  }
  if (kafka.changelog.enabled && stage != StageKind::kRekey) written.push_back(kafka.changelog.topic);
  return written;
}

StatusOr<int64_t> OutputSizeLimit(const kafka::KafkaOptions& kafka, StageKind stage,
                                  const Clock& clock) {
  const std::vector<std::string> written = WrittenTopics(kafka, stage);
  const kafka::TopicAdmin admin(kafka.bootstrap_servers, kafka.common, kafka.startup_timeout);
  // Instances started together race to create the changelog and
  // repartition topics; the loser's broker can answer "unknown topic" for a
  // moment after the winner's create returned.
  const auto deadline = clock.SteadyNow() + kafka.startup_timeout;
  StatusOr<std::map<std::string, int64_t>> limits = admin.MaxMessageBytes(written);
  while (limits.status().code() == StatusCode::kNotFound && clock.SteadyNow() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    limits = admin.MaxMessageBytes(written);
  }
  if (!limits.ok()) {
    return Status(limits.status().code(),
                  "cannot read max.message.bytes of the topics pagesieve writes (" +
                      limits.status().message() +
                      "): grant DESCRIBE_CONFIGS on them, or set output.max_message_bytes");
  }
  int64_t limit = kafka.output.max_message_bytes;
  for (const auto& [topic, bytes] : *limits) {
    if (bytes > 0 && bytes < limit) {
      spdlog::info("topic {} takes messages up to {} bytes (max.message.bytes): larger output "
                   "leaves out bodies or is cut to fit",
                   topic, bytes);
      limit = bytes;
    }
  }
  return limit;
}

}  // namespace pagesieve::run
