#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "kafka/kafka_options.h"
#include "metrics/metric.h"
#include "pipeline/sink.h"

namespace RdKafka {
class Error;
class DeliveryReportCb;
class EventCb;
class Producer;
class Topic;
}  // namespace RdKafka

namespace pagesieve::kafka {

class Consumer;

// The pipeline's Sink over a librdkafka producer: a message is acknowledged
// when the broker has it (acks = all, idempotent: kafka_options.cc).
// Delivery reports arrive from Poll(), on the pipeline's thread, as does
// everything else. Not thread-safe.
//
// With processing.guarantee = exactly_once it is transactional: the first
// message after a commit begins a transaction, and CommitTransaction() sends
// the input offsets into it with the group member's metadata, so the group
// coordinator refuses them from a member that lost its partitions, and the
// whole transaction is aborted instead (fencing, KIP-447).
class KafkaSink final : public pipeline::Sink {
 public:
  // `delivery_errors` (may be null) counts failed deliveries.
  // `member` (the stage's consumer, which must outlive the sink) is needed
  // when the options make the sink transactional; its topic is the input's.
  // `clock` times how long a transaction has been open.
  static StatusOr<std::unique_ptr<KafkaSink>> Create(const KafkaOptions& options,
                                                     metrics::Counter* delivery_errors,
                                                     Consumer* member = nullptr,
                                                     const Clock& clock = Clock::System());
  ~KafkaSink() override;

  Status Send(const pipeline::OutputMessage& message,
              const std::shared_ptr<pipeline::DeliveryCounter>& counter) override;
  void Poll(Duration wait) override;
  void SendNow() override;
  int64_t unacknowledged() const override { return unacknowledged_; }

  bool transactional() const override { return member_ != nullptr; }
  Status CommitTransaction(const std::vector<std::pair<PartitionId, Offset>>& offsets) override;
  Status AbortTransaction() override;
  bool in_transaction() const override { return in_transaction_; }

  // Waits up to `timeout` for what is queued to be delivered.
  void Flush(Duration timeout);
  // Learns the topics the stage will write (LearnTopic) before its first
  // record, so the first message to each does not wait on the loop thread
  // for the broker's answer.
  void LearnTopics(const std::vector<std::string>& topics);

 private:
  class Reports;
  KafkaSink(metrics::Counter* delivery_errors, const Clock& clock);
  // Marks a transaction begun (now).
  void Began();
  // Whether a fence of this producer can only be the coordinator timing out
  // its transaction (after a stall): the id is this process's alone, and the
  // open transaction has lasted the timeout. Then a new producer goes on.
  bool FenceIsAStall() const;
  void OnDelivery(void* opaque, bool failed, bool permanent, const std::string& error,
                  int64_t offset);
  // Creates the producer (and initialises its transactions).
  Status Connect();
  // Gives the producer up and starts a new one with the same
  // transactional.id: the way out of a fatal error that is not fencing.
  Status Reconnect();
  // What a transactional call's error means: kDeadlineExceeded when the
  // same call may be made again, kAborted when the transaction can be
  // aborted and the work done again, kFailedPrecondition the same when the
  // group no longer counts the member whose offsets it carries, else fatal
  // (kUnavailable).
  Status TransactionError(RdKafka::Error* error, const std::string& what);
  // Makes a transactional call, again while it times out retriably.
  Status Retrying(const std::function<RdKafka::Error*(int timeout_ms)>& call,
                  const std::string& what);
  int TransactionTimeoutMs() const;
  // Asks the broker for a topic's partitions and leaders before the first
  // message to it. librdkafka would hold that message until its once-a-second
  // refresh of unknown topics: the run's first verdicts waited up to a second
  // for it (docs/benchmarks.md, latency).
  void LearnTopic(const std::string& topic);

  static constexpr int kTransactionCallTries = 3;
  static constexpr int kLearnTopicTimeoutMs = 1000;

  metrics::Counter* const delivery_errors_;
  const Clock& clock_;
  KafkaOptions options_;
  Consumer* member_ = nullptr;  // transactional when set
  Duration transaction_timeout_{};
  bool in_transaction_ = false;
  Clock::SteadyTime transaction_began_{};
  bool fenced_ = false;  // another producer took this transactional.id
  // The coordinator fenced this producer, whose id is exclusive, for a
  // transaction that outlived its timeout: the next abort replaces it.
  bool stalled_fence_ = false;
  std::unique_ptr<RdKafka::EventCb> events_;
  std::unique_ptr<RdKafka::DeliveryReportCb> reports_;
  std::unique_ptr<RdKafka::Producer> producer_;
  // The topics LearnTopic() asked for, with the producer's handles on them
  // (destroyed before the producer).
  std::vector<std::string> learned_names_;
  std::vector<std::unique_ptr<RdKafka::Topic>> learned_topics_;
  int64_t unacknowledged_ = 0;
};

}  // namespace pagesieve::kafka
