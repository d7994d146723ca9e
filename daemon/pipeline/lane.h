#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "common/clock.h"
#include "common/status_or.h"
#include "engine/verdict_counts.h"
#include "metrics/metric.h"
#include "pipeline/batch_queue.h"
#include "pipeline/changelog_shipper.h"
#include "pipeline/sink.h"
#include "pipeline/stage.h"
#include "store/shard.h"

namespace pagesieve::pipeline {

// When a lane checkpoints: after `interval` of wall time (the daemon), or
// every `every_records` decided records (files); whichever comes first. A
// lane that decided nothing since its last checkpoint does not checkpoint.
struct CheckpointPolicy {
  std::optional<Duration> interval;
  std::optional<int64_t> every_records;
};

struct LaneOptions {
  size_t batch_records = 64;
  Duration batch_linger = std::chrono::milliseconds(10);
  CheckpointPolicy checkpoint{std::chrono::seconds(1), std::nullopt};
  // The compacted topic each checkpoint's state changes go to before the
  // checkpoint is made locally (docs/changelog.md); empty: none.
  std::string changelog_topic;
  // Observes each record's time from read to decided, when set.
  metrics::Histogram* processing_latency = nullptr;
  // Counts the changelog records shipped, when set.
  metrics::Counter* changelog_records = nullptr;
  // Exactly once: the pipeline commits every lane in one transaction
  // (RequestCommit, PrepareCommit, FinishCommit) instead of each lane
  // checkpointing on its own (MaybeCheckpoint).
  bool transactional = false;
};

// One partition of the input, from records read to a checkpointed offset:
// the same code for a Kafka partition and for the files of pagesieve dedup.
//
// Records arrive in lane-offset order and go to the prepare pool in batches;
// prepared batches are processed strictly in order (the stage decides each
// record against the lane's shard), and each output message goes to the
// sink.
//
// Nothing is lost because of how checkpoints are taken, and this is the one
// place that takes them: when one is due the lane stops processing until
// every message it sent is acknowledged, then ships the checkpoint's state
// changes to the changelog (when there is one) and waits for those too, then
// checkpoints the shard at the next unprocessed offset with the changelog
// position. The checkpointed state and offset therefore never run ahead of
// acknowledged output, nor of the changelog; after a crash the records after
// the checkpoint are decided again against the same state and get the same
// verdicts. A stage without state (re-keying) follows the same rule: its
// checkpoint is only the offset to commit.
//
// Not thread-safe: the pipeline's thread only.
class Lane {
 public:
  // Ok while every output of the lane was delivered or may still be; else
  // why not: kAborted when the transaction holding it can be aborted and
  // the records decided again, kUnavailable when that cannot mend it.
  Status CheckDeliveries() const;
  // `name` is for messages ("pages-3"). `shard` is null for a stage without
  // state. The stage reads and writes `wrapper` when there is one (it wraps
  // the shard, to time it), else the shard itself.
  Lane(std::string name, PartitionId partition, std::unique_ptr<store::Shard> shard,
       std::unique_ptr<store::TierStores> wrapper, const LaneOptions& options, Stage& stage,
       const Clock& clock);

  PartitionId partition() const { return partition_; }
  const std::string& name() const { return name_; }

  // Records before `offset` are not processed again.
  void StartAt(Offset offset);
  // Records before `offset` were decided and their output committed by an
  // earlier run whose state did not reach its checkpoint (exactly once: the
  // process stopped between a transaction's commit and the local
  // checkpoint; or the shard is older than the group's position): they are
  // decided again to bring the state up to it, and their output is dropped.
  void ReplayUntil(Offset offset) { replay_until_ = offset; }
  // A record read from the input. Records before the next expected offset
  // (already processed) are ignored: false. Later offsets than expected are
  // gaps (compaction, retention, aborted transactions, skipped lines).
  bool Add(SourceRecord record);

  // Nothing before `offset` is left to read: once what was read is
  // processed, the lane's position moves over the gap (Lanes::SkipTo).
  void SkipTo(Offset offset);

  std::unique_ptr<engine::PrepareBatch> TakeBatch(bool flush, uint64_t* seq) {
    return batches_.Take(flush, seq);
  }
  void Prepared(uint64_t seq, std::unique_ptr<engine::PrepareBatch> batch) {
    batches_.Prepared(seq, std::move(batch));
  }

  // Processes prepared batches in order and sends their output, as far as
  // it may: not while a checkpoint is due or under way, not when the sink
  // holds `max_unacknowledged` messages. An error is fatal for the lane
  // (storage failed, or the sink refused a message for good).
  Status Process(Sink& sink, int64_t max_unacknowledged, engine::VerdictCounts& counts);
  // After a round of processing: queues the stage's output that belongs to
  // no one record (Stage::AfterProcessing), sent after what is queued.
  Status AfterProcessing(bool at_end);

  // Takes the checkpoint when one is due (or `force`) and every sent message
  // is acknowledged, shipping its changelog records through `sink` first,
  // which may take several calls. Returns the offset to commit when it
  // checkpointed. A checkpoint once begun is finished by later calls,
  // forced or not.
  StatusOr<std::optional<Offset>> MaybeCheckpoint(Sink& sink, bool force);

  // --- Exactly once (options.transactional) ---
  // Stops processing until FinishCommit(): a transaction is to commit. The
  // first call takes what the stage sends once per transaction
  // (Stage::BeforeCommit), to go after everything processed.
  void RequestCommit();
  // The stage holds output for the next commit (Stage::HoldsOutput).
  bool HoldsOutput() const { return stage_.HoldsOutput(partition_); }
  bool commit_requested() const { return commit_requested_; }
  // Makes the lane ready for the transaction to commit: its output and the
  // changelog records of what changed handed to the sink, whose commit
  // waits for their acknowledgements. True when ready; may take several
  // calls.
  StatusOr<bool> PrepareCommit(Sink& sink);
  // The input offset the transaction commits for this lane, if it read
  // anything.
  std::optional<Offset> commit_offset() const;
  // The transaction committed: the local checkpoint follows it, and
  // processing goes on.
  Status FinishCommit();
  // Where the lane starts again when the transaction is aborted: its last
  // checkpoint, else where it started.
  std::optional<Offset> rollback_offset() const;
  std::optional<Offset> replay_until() const { return replay_until_; }
  // Records processed since the last checkpoint, a changelog to seed, or
  // output of the stage's own sent or held for the commit: a checkpoint is
  // worth taking.
  bool progressed() const {
    return !checkpointed_ || *checkpointed_ < next_offset_ || SeedDue() || emitted_ ||
           HoldsOutput();
  }

  // Everything read so far has been processed and acknowledged, and no
  // checkpoint is under way.
  bool Drained() const;
  // The last checkpoint covers every processed record (and the changelog
  // has the shard), and the stage holds nothing for the next commit.
  bool Checkpointed() const {
    if (HoldsOutput()) return false;
    return next_offset_.value() < 0 ||
           (checkpointed_ && *checkpointed_ == next_offset_ && !SeedDue() && !emitted_);
  }
  // Batches are at the pool: waiting for them is worth it.
  bool WaitingForPool() const { return batches_.waiting_for_pool(); }
  // Only the pool, more input or the open batch's linger (BatchLingerEnds)
  // can move the lane on: it sends nothing, awaits no acknowledgement for
  // a checkpoint or commit, and has no prepared batch held back.
  bool WaitsOnlyForPoolOrInput() const;
  std::optional<Clock::SteadyTime> BatchLingerEnds() const { return batches_.linger_ends(); }
  // A checkpoint or commit waits for this lane's output to be acknowledged:
  // what the sink holds back to batch it holds back the checkpoint.
  bool AwaitsAcknowledgements() const;
  // Bytes read and not yet processed: what backpressure counts.
  size_t pending_bytes() const { return pending_bytes_; }
  // The next offset to process: everything before it has its output.
  Offset next_offset() const { return next_offset_; }
  // The next offset the lane expects to read.
  Offset next_expected() const { return next_expected_; }
  std::optional<Offset> checkpointed_offset() const { return checkpointed_; }
  const DeliveryCounter& deliveries() const { return *counter_; }
  // For operator figures (Shard::Stats); null without state.
  const store::Shard* shard() const { return shard_.get(); }

  // Stored keys of the expiry sweep read per idle Process() call: about a
  // millisecond, so that a batch arriving meanwhile waits little.
  static constexpr size_t kIdleSweepKeys = 256;

 private:
  // Processes every record of `batch` into unsent_.
  Status ProcessBatch(BatchQueue::Batch& batch, engine::VerdictCounts& counts);
  bool CheckpointDue() const;
  // The shard has state its changelog never received (kept with the
  // changelog off, or the changelog lost it): the next checkpoint ships it
  // whole, even when no record came since the last one, so that an idle
  // partition does not move without its history.
  bool SeedDue() const { return changelog_ && shard_->ships_snapshot(); }
  // Checkpoints at `next` (changelog already shipped, output acknowledged).
  Status Commit(Offset next);
  // The stage puts what it holds into the shard before a checkpoint takes
  // its changes (Stage::BeforeCheckpoint).
  void PrepareShard();
  // Hands the unsent messages to the sink in order; false when its queue
  // is full and some are left.
  StatusOr<bool> SendUnsent(Sink& sink);

  const std::string name_;
  const PartitionId partition_;
  const std::unique_ptr<store::Shard> shard_;
  const std::unique_ptr<store::TierStores> wrapper_;
  store::TierStores* const stores_;  // what the stage gets: the wrapper, else the shard
  const LaneOptions& options_;
  Stage& stage_;
  const Clock& clock_;

  BatchQueue batches_;
  std::deque<OutputMessage> unsent_;  // processed, refused by a full sink
  std::shared_ptr<DeliveryCounter> counter_ = std::make_shared<DeliveryCounter>();
  std::optional<ChangelogShipper> changelog_;  // with options.changelog_topic

  std::optional<Offset> start_;         // where the lane was started
  std::optional<Offset> replay_until_;  // output before it is dropped
  std::optional<Offset> skip_to_;       // where the position moves once all read is processed
  bool commit_requested_ = false;
  Offset next_expected_{-1};  // next offset Add() accepts; -1: the first record sets it
  Offset next_offset_{-1};    // next offset to process
  std::optional<Offset> checkpointed_;
  Clock::SteadyTime last_checkpoint_{};
  int64_t since_checkpoint_ = 0;  // records processed since the last checkpoint
  bool emitted_ = false;          // the stage sent output of its own since then
  size_t pending_bytes_ = 0;
};

}  // namespace pagesieve::pipeline
