#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "config/config.h"

namespace RdKafka {
class Conf;
}

namespace pagesieve::kafka {

// The topics verdicts and dead letters go to ([output]).
struct OutputTopics {
  std::string unique;
  std::string duplicate;
  std::string skipped;
  std::string dead_letter;
  bool include_body = false;
  // The largest message the producer and every topic it writes accept (the
  // producer's message.max.bytes, lowered at start-up to the smallest
  // max.message.bytes of the topics). A message over it would fail delivery
  // after every restart, so the output leaves out what it can instead: a
  // verdict its body, a dead letter the end of the record it quotes.
  int64_t max_message_bytes = kLibrdkafkaMessageMaxBytes;
  static constexpr int64_t kLibrdkafkaMessageMaxBytes = 1'000'000;  // its default
  // output.max_message_bytes = 0: ask the broker for the topics' limits.
  bool learn_topic_limits = true;

  // Every distinct topic, for start-up checks.
  std::vector<std::string> All() const;
};

// State that follows its partition between instances ([changelog],
// docs/changelog.md).
struct ChangelogOptions {
  bool enabled = true;
  std::string topic;  // "<group_id>-state-changelog" when the configuration leaves it empty
  // How long a revoked shard stays on disk in case its partition comes back.
  Duration revoked_shard_grace = std::chrono::hours(1);
};

// Re-keying by scope ([input], docs/rekey.md): when the input topic is not
// partitioned by scope, a stateless stage republishes each prepared event to
// `topic`, keyed by scope, and the stateful stage consumes that.
struct RekeyOptions {
  bool enabled = false;    // input.partitioned_by is not "scope"
  std::string topic;       // "<group_id>-repartition" when the configuration leaves it empty
  int32_t partitions = 0;  // when created; 0: the input topic's count
  Duration retention = std::chrono::hours(24 * 7);
  // The re-keying stage's own consumer group: "<group_id>-rekey".
  std::string group_id;
};

// Global dedup routed by fingerprint (scope.routing = "fingerprint",
// [routing], docs/global-routing.md): a route stage stamps each event with
// its place in the order and sends it to the owner of its URL; the URL,
// content and near owners are stages of their own, each a consumer group
// on an internal topic, with state, changelog and transactions as ever.
struct RoutingOptions {
  bool enabled = false;
  int32_t partitions = 8;  // of each internal topic, when created
  Duration max_lateness = std::chrono::minutes(1);
  // A live input partition with nothing to read this long (wall time)
  // lifts its floor to now less max_lateness; zero: never.
  Duration idle_timeout = std::chrono::seconds(30);
  // Each routed stage's transaction interval (its run.checkpoint_interval):
  // a record whose near keys an earlier record in flight shares waits for
  // that record's outcome, two transactions per link of such a chain.
  Duration checkpoint_interval = std::chrono::milliseconds(100);
  Duration retention = std::chrono::hours(24 * 7);
  std::string input_topic;  // the events' (kafka.input_topic)
  // "<group_id>-routed-url", "-routed-content", "-routed-near".
  std::string url_topic;
  std::string content_topic;
  std::string near_topic;
  // Every internal topic, for start-up checks.
  std::vector<std::string> Topics() const { return {url_topic, content_topic, near_topic}; }
};

// How pagesieve talks to Kafka ([kafka], [kafka.*], [output], [changelog],
// [input], [routing]).
// The delivery guarantee of pagesieve run (docs/daemon.md, "Exactly once").
struct ProcessingOptions {
  // Exactly once: each checkpoint cycle's verdicts, dead letters, changelog
  // records and input offsets commit in one Kafka transaction. At least
  // once: output is acknowledged before offsets are committed, and a crash
  // repeats what followed the last checkpoint.
  bool exactly_once = true;
  // The producer's transactional.id. A stage's own id is set at start from
  // this (or, empty, from the group, the stage and this instance), so that a
  // restarted instance aborts what its previous life left open.
  std::string transactional_id;
  // Set at start when the id is this process's alone (a locked slot of the
  // state directory, run/transactional_id.h): a fence can then only be the
  // coordinator aborting a transaction that outlived transaction_timeout
  // (the process stalled), and a new producer goes on. A configured id may
  // be shared by mistake, and a fence stops the stage, or two instances
  // would fence each other in turn.
  bool transactional_id_exclusive = false;
  // How long a transaction may stay open before the broker aborts it: what
  // a crashed instance's open transaction holds back read_committed
  // consumers at most. Also the producer's message.timeout.ms.
  Duration transaction_timeout = std::chrono::seconds(60);
};

struct KafkaOptions {
  std::string bootstrap_servers;
  std::string group_id;
  std::string instance_id;  // group.instance.id: static membership; empty: dynamic
  std::string input_topic;
  Duration startup_timeout{};
  std::map<std::string, std::string> common;    // [kafka.common]
  std::map<std::string, std::string> consumer;  // [kafka.consumer]
  std::map<std::string, std::string> producer;  // [kafka.producer]
  OutputTopics output;
  ChangelogOptions changelog;
  RekeyOptions rekey;
  RoutingOptions routing;
  ProcessingOptions processing;
};

// Reads scope.routing and [routing] into `o` (whose group_id, input,
// output and changelog topics are read already).
Status ReadRoutingOptions(const Config& config, KafkaOptions& o);

// Reads the options and refuses pass-through properties that would break the
// guarantee that no record is lost (auto commits, non-idempotent producing).
StatusOr<KafkaOptions> KafkaOptionsFromConfig(const Config& config);

// librdkafka configurations with pagesieve's fixed settings applied over the
// pass-through properties. Errors name the property librdkafka refused.
StatusOr<std::unique_ptr<RdKafka::Conf>> ConsumerConf(const KafkaOptions& options);
StatusOr<std::unique_ptr<RdKafka::Conf>> ProducerConf(const KafkaOptions& options);
// Builds both client configurations to find a property librdkafka refuses
// now, at start-up, rather than at the first connection.
Status CheckClientConfs(const KafkaOptions& options);
// The consumer that reads the changelog to restore shards: assigned
// partitions by hand, never a group member, never committing.
StatusOr<std::unique_ptr<RdKafka::Conf>> RestoreConsumerConf(const KafkaOptions& options);

}  // namespace pagesieve::kafka
