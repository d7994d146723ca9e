#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "common/types.h"
#include "kafka/kafka_options.h"
#include "pipeline/output_message.h"
#include "pipeline/payload.h"

namespace RdKafka {
class ConsumerGroupMetadata;
class KafkaConsumer;
class Message;
class RebalanceCb;
class EventCb;
}  // namespace RdKafka
struct rd_kafka_queue_s;  // librdkafka's C queue handle

namespace pagesieve::kafka {

// What the consumer group does to this member: librdkafka's rebalance
// callback, in pagesieve's terms. Called from within Consumer::Consume(), on
// the consuming thread. The listener decides when to take up the partitions
// (Consumer::Assign) and must release revoked or lost ones
// (Consumer::Unassign) before returning.
class RebalanceListener {
 public:
  virtual ~RebalanceListener() = default;
  virtual void OnAssigned(const std::vector<PartitionId>& partitions) = 0;
  // An orderly revocation: what was read may still be finished and committed.
  virtual void OnRevoked(const std::vector<PartitionId>& partitions) = 0;
  // The partitions are gone already: another member may own them.
  virtual void OnLost(const std::vector<PartitionId>& partitions) = 0;
};

// One result of Consumer::Consume(): a record, or why there is none. Its
// views are valid while it lives.
class Consumed {
 public:
  enum class Kind { kRecord, kTimedOut, kPartitionEnd, kError };

  explicit Consumed(std::unique_ptr<RdKafka::Message> message);
  ~Consumed();
  Consumed(Consumed&&) noexcept;
  Consumed& operator=(Consumed&&) noexcept;

  Kind kind() const { return kind_; }
  std::string error() const;  // kError
  PartitionId partition() const;
  Offset offset() const;
  std::optional<std::string_view> key() const;
  std::optional<std::string_view> value() const;  // none: a tombstone
  // The value without a copy: it keeps the message (and librdkafka's fetch
  // buffer under it) alive for as long as it lives.
  pipeline::Payload SharedValue() const;
  std::optional<EventTime> timestamp() const;
  pipeline::Headers headers() const;

 private:
  std::shared_ptr<RdKafka::Message> message_;
  Kind kind_;
};

// A librdkafka consumer of one topic, with every call pagesieve makes typed
// in its own terms (partition ids, offsets, Status), so that no librdkafka
// type leaves daemon/kafka. Not thread-safe: one thread consumes.
class Consumer {
 public:
  // A member of the options' consumer group (subscribe to `topic` with
  // Subscribe()); rebalances reach `listener`, which must outlive it.
  static StatusOr<std::unique_ptr<Consumer>> CreateMember(const KafkaOptions& options,
                                                          std::string topic,
                                                          RebalanceListener& listener);
  // A consumer that is never a group member, for reading a topic's
  // partitions by hand (the changelog, to restore shards).
  static StatusOr<std::unique_ptr<Consumer>> CreateReader(const KafkaOptions& options,
                                                          std::string topic);
  ~Consumer();  // leaves the group (closes) if Close() was not called

  const std::string& topic() const { return topic_; }

  Status Subscribe();
  Consumed Consume(Duration wait);
  // Makes a Consume() that waits now return at once, as timed out, or the
  // next one when none waits. Thread-safe: for a thread with news of its
  // own for the one that consumes.
  void Wake();
  // Leaves the group: revokes everything first (the listener hears it).
  void Close();

  // Partition counts of every topic the cluster knows; Unavailable when the
  // cluster does not answer within `timeout`.
  StatusOr<std::map<std::string, int32_t>> TopicPartitions(Duration timeout);
  // The first and next offsets of a partition, asked of the broker again
  // while the answer is an error that passes (a topic created a moment ago
  // has no leaders yet; leaders move while a broker restarts), until
  // `deadline`. Unavailable when such an error outlasted it (asking again
  // later may succeed), FailedPrecondition for one that does not pass.
  StatusOr<std::pair<int64_t, int64_t>> AwaitWatermarks(PartitionId partition, const Clock& clock,
                                                        Clock::SteadyTime deadline);
  // The same from the consumer's cache (refreshed by every fetch): no request.
  std::optional<std::pair<int64_t, int64_t>> CachedWatermarks(PartitionId partition);
  // The group's committed offset of a partition, if it has one, asked again
  // while the answer is an error that passes (a coordinator loading after a
  // broker restart, an offset a pending transaction makes unstable), until
  // `deadline`. An error is never taken for "nothing committed": a member
  // would read the partition again from its start. Errors as
  // AwaitWatermarks.
  StatusOr<std::optional<Offset>> AwaitCommitted(PartitionId partition, const Clock& clock,
                                                 Clock::SteadyTime deadline);
  // The committed offsets of several partitions in one request: those with
  // one (one that a pending transaction makes unstable is left out).
  StatusOr<std::map<PartitionId, Offset>> Committed(const std::vector<PartitionId>& partitions,
                                                    Duration timeout);
  // The first offset of a record stamped at or after `t`; none when no
  // record is that late.
  StatusOr<std::optional<Offset>> OffsetForTime(PartitionId partition, WallTime t,
                                                Duration timeout);

  // A group member takes up partitions (incremental) at the given offsets,
  // and lets them go.
  Status Assign(const std::vector<std::pair<PartitionId, Offset>>& partitions);
  Status Unassign(const std::vector<PartitionId>& partitions);
  // A reader reads exactly these partitions from these offsets (replacing
  // what it read before; empty: nothing).
  Status AssignOnly(const std::vector<std::pair<PartitionId, Offset>>& partitions);

  void Pause(const std::vector<PartitionId>& partitions);
  void Resume(const std::vector<PartitionId>& partitions);
  Status Commit(const std::vector<std::pair<PartitionId, Offset>>& offsets, bool sync);
  // An assigned partition is read again from `offset` (after a transaction
  // was aborted: what followed the last commit is decided again).
  Status Seek(PartitionId partition, Offset offset);

  // What a transactional producer sends with the offsets it commits, so
  // the group coordinator refuses them from a member of an old generation
  // (a zombie: KIP-447). For KafkaSink only.
  std::unique_ptr<RdKafka::ConsumerGroupMetadata> GroupMetadata();

 private:
  Consumer(std::string topic, std::unique_ptr<RdKafka::EventCb> events,
           std::unique_ptr<RdKafka::RebalanceCb> rebalance,
           std::unique_ptr<RdKafka::KafkaConsumer> consumer);

  const std::string topic_;
  std::unique_ptr<RdKafka::EventCb> events_;
  std::unique_ptr<RdKafka::RebalanceCb> rebalance_;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  // The queue Consume() waits on, held to wake it: released before the
  // consumer (a queue handle keeps its client alive).
  rd_kafka_queue_s* queue_ = nullptr;
  bool closed_ = false;
};

}  // namespace pagesieve::kafka
