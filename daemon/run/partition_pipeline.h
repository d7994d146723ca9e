#pragma once

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "engine/prepare_pool.h"
#include "engine/sieve.h"
#include "engine/verdict_counts.h"
#include "kafka/kafka_options.h"
#include "metrics/metric.h"
#include "run/output_sink.h"
#include "run/records.h"
#include "store/shard.h"

namespace pagesieve::run {

struct PipelineOptions {
  size_t batch_records = 64;
  Duration batch_linger = std::chrono::milliseconds(10);
  Duration checkpoint_interval = std::chrono::seconds(1);
  kafka::OutputTopics topics;
  // The compacted topic each checkpoint's state changes go to before the
  // checkpoint is made locally (docs/changelog.md); empty: none.
  std::string changelog_topic;
  // The re-keying stage (docs/rekey.md): prepared records are republished to
  // this topic, keyed by scope, instead of decided; the pipeline has no
  // shard, and a checkpoint is only the offset to commit. Empty: decide.
  std::string repartition_topic;
  std::string body_field = "body";
  std::string body_base64_field = "body_base64";
  // Observes each record's time from consumed to decided, when set.
  metrics::Histogram* processing_latency = nullptr;
  // Counts the changelog records shipped, when set.
  metrics::Counter* changelog_records = nullptr;
};

// One assigned input partition, from consumed records to a committed offset.
//
// Records arrive in offset order and are grouped into batches for the
// fingerprinting pool; prepared batches are decided strictly in order against
// the partition's shard, and each verdict or dead letter goes to the sink.
//
// Nothing is lost because of how checkpoints are taken: when one is due the
// pipeline stops deciding until every message it sent is acknowledged, then
// ships the checkpoint's state changes to the changelog (when there is one)
// and waits for those too, then checkpoints the shard at the next undecided
// offset with the changelog position. The checkpointed state and offset
// therefore never run ahead of acknowledged output, nor of the changelog;
// after a crash the records after the checkpoint are decided again against
// the same state and get the same verdicts.
//
// In the re-keying stage (options.repartition_topic) the same protocol holds
// without a shard: a record's "verdict" is its repartition record, and the
// offset is committed once everything before it is acknowledged.
//
// Not thread-safe: owned by the run loop's thread.
class PartitionPipeline {
 public:
  PartitionPipeline(std::string topic, PartitionId partition, std::unique_ptr<store::Shard> shard,
                    std::optional<Offset> resume_from, const PipelineOptions& options,
                    const engine::Sieve& sieve, const Clock& clock);

  PartitionId partition() const { return partition_; }
  const std::string& topic() const { return topic_; }

  // A consumed record. Records before the next expected offset (already
  // decided) are ignored: false.
  bool Add(ConsumedRecord record);

  // A batch ready for the pool, of at most batch_records records: when that
  // many are open, when the oldest open record waited batch_linger, or when
  // `flush` is set. The batch's records point into memory
  // the pipeline keeps until the batch is decided. `seq` numbers the batch.
  std::unique_ptr<engine::PrepareBatch> TakeBatch(bool flush, uint64_t* seq);

  // The pool finished batch `seq`.
  void Prepared(uint64_t seq, std::unique_ptr<engine::PrepareBatch> batch);

  // Decides prepared batches in order and sends their output, as far as it
  // may: not while a checkpoint waits for acknowledgements, not when the sink
  // holds `max_unacknowledged` messages. An error is fatal for the partition
  // (storage failed, or the sink refused a message for good).
  Status Decide(OutputSink& sink, int64_t max_unacknowledged, engine::VerdictCounts* counts);

  // Takes the checkpoint when one is due (or `force`) and every sent message
  // is acknowledged, shipping its changelog records through `sink` first,
  // which may take several calls. Returns the offset to commit when it
  // checkpointed. A checkpoint once begun is finished by later calls,
  // forced or not.
  StatusOr<std::optional<Offset>> MaybeCheckpoint(OutputSink& sink, bool force);

  // Everything consumed so far has been decided and acknowledged, and no
  // checkpoint is under way.
  bool Drained() const;
  // The last checkpoint covers every decided record.
  bool Checkpointed() const {
    return next_offset_.value() < 0 || (checkpointed_ && *checkpointed_ == next_offset_);
  }
  // Bytes consumed and not yet decided: what backpressure counts.
  size_t pending_bytes() const { return pending_bytes_; }
  // The next offset to decide: everything before it has a verdict.
  Offset next_offset() const { return next_offset_; }
  std::optional<Offset> checkpointed_offset() const { return checkpointed_; }
  const DeliveryCounter& deliveries() const { return *counter_; }
  // For operator figures (Shard::Stats), on the owning thread; null in the
  // re-keying stage.
  const store::Shard* shard() const { return shard_.get(); }

 private:
  struct Batch {
    std::vector<ConsumedRecord> records;
    std::unique_ptr<engine::PrepareBatch> prepared;  // set once the pool is done
  };

  // Decides every record of `batch` into unsent_.
  Status DecideBatch(Batch& batch, engine::VerdictCounts* counts);
  bool CheckpointDue() const;
  // Queues the changelog records of a checkpoint at next_offset_.
  Status BeginShipping();
  // Sends the queued changelog records; true once all are acknowledged.
  StatusOr<bool> Ship(OutputSink& sink);
  Status CheckDeliveries() const;

  const std::string topic_;
  const PartitionId partition_;
  std::unique_ptr<store::Shard> shard_;
  const PipelineOptions& options_;
  const engine::Sieve& sieve_;
  const Clock& clock_;

  std::deque<ConsumedRecord> open_;        // not yet handed to the pool
  Clock::SteadyTime open_since_{};
  std::map<uint64_t, Batch> in_flight_;    // handed to the pool, by sequence
  uint64_t next_seq_ = 0;                  // next batch to hand out
  uint64_t next_to_decide_ = 0;            // next batch to decide
  std::deque<OutputMessage> unsent_;       // decided, refused by a full sink
  std::shared_ptr<DeliveryCounter> counter_ = std::make_shared<DeliveryCounter>();
  // The checkpoint being shipped to the changelog, its records not yet sent,
  // and their acknowledgements.
  std::optional<Offset> shipping_;
  std::deque<OutputMessage> changelog_unsent_;
  std::shared_ptr<DeliveryCounter> changelog_counter_ = std::make_shared<DeliveryCounter>();

  Offset next_expected_{};                 // next offset Add() accepts
  Offset next_offset_{};                   // next offset to decide
  std::optional<Offset> checkpointed_;
  Clock::SteadyTime last_checkpoint_{};
  size_t pending_bytes_ = 0;
};

}  // namespace pagesieve::run
