#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "engine/prepare_pool.h"
#include "engine/verdict_counts.h"
#include "metrics/metric.h"
#include "pipeline/backpressure.h"
#include "pipeline/completion_queue.h"
#include "pipeline/lane.h"
#include "pipeline/sink.h"
#include "pipeline/source.h"
#include "pipeline/stage.h"
#include "pipeline/timed_tier_stores.h"
#include "store/shard.h"

namespace pagesieve::pipeline {

struct PipelineOptions {
  // Lanes are named "<input_name>-<partition>" in messages.
  std::string input_name;
  int threads = 1;  // prepare pool workers
  LaneOptions lane;
  // Backpressure (backpressure.h).
  size_t max_pending_bytes = 64u << 20;
  int64_t max_unacknowledged = 100'000;
  // How long Step() waits for input: briefly while records are in flight
  // (unless the source wakes when the pool is done: Source::Wakeable),
  // longer when there is nothing to do.
  Duration busy_wait = std::chrono::milliseconds(1);
  Duration idle_wait = std::chrono::milliseconds(100);
  // Operator figures, each when set.
  std::optional<TimedTierStores::Timers> lookup_timers;
  metrics::Histogram* fingerprint_time = nullptr;  // per record, on the pool
  // Exactly once (a transactional sink): transactions committed and
  // aborted, each when set.
  metrics::Counter* transactions_committed = nullptr;
  metrics::Counter* transactions_aborted = nullptr;
  // Exactly once: from a commit's start (no lane decides from then on) to
  // its end, the offsets and output committed: the stall every commit puts
  // into the latency of the records behind it.
  metrics::Histogram* commit_time = nullptr;
  // Exactly once: shard checkpoints that follow a commit (at least once, the
  // source counts them with its offset commits).
  metrics::Counter* checkpoints = nullptr;
};

// Opens the shard of a partition (only for a stage that keeps state).
using ShardOpener = std::function<StatusOr<std::unique_ptr<store::Shard>>(PartitionId)>;

// The record pipeline both modes run (docs/architecture.md): records from a
// Source go into one Lane per partition, through the prepare pool, through
// the Stage in order, to the Sink; each lane checkpoints behind acknowledged
// output and the source commits what is checkpointed. pagesieve dedup runs
// it over files, every stage of pagesieve run over Kafka; neither has a
// processing loop of its own.
//
// One thread (the caller's) does everything but preparing, which runs on the
// pool's workers. Not thread-safe.
class Pipeline final : public Lanes {
 public:
  // `source`, `sink`, `stage` and `clock` must outlive the pipeline.
  Pipeline(Source& source, Sink& sink, Stage& stage, ShardOpener open_shard,
           PipelineOptions options, const Clock& clock);
  ~Pipeline() override;

  // One round: read, prepare, process, send, checkpoint, commit, apply
  // backpressure, and finish the lanes that reached their end. An error is
  // fatal for the run; the status says what, in one line.
  Status Step();
  // Every lane reached its end: nothing more will come.
  bool Done() const { return source_.Exhausted(); }
  // Stops reading and finishes what was read (processed, acknowledged,
  // checkpointed, committed) within `timeout`, then closes every lane. A
  // transaction that fails meanwhile is rolled back and what it held
  // decided again, time allowing.
  Status Shutdown(Duration timeout);
  // After a failure: lanes taken away from now on are dropped, not drained,
  // so state stays at its last checkpoint.
  void Abandon() { abandoned_ = true; }

  const engine::VerdictCounts& counts() const { return counts_; }
  // What operator figures need of each open lane.
  struct LaneInfo {
    PartitionId partition;
    Offset next_offset;
    size_t pending_bytes;
    bool paused;
    const store::Shard* shard;  // null without state
  };
  std::vector<LaneInfo> lanes() const;
  size_t prepare_queue() const { return pool_.pending_records(); }

  // Lanes (what the source does to the pipeline).
  StatusOr<std::optional<Offset>> Open(PartitionId partition) override;
  StatusOr<std::optional<Offset>> OpenWith(PartitionId partition,
                                           std::unique_ptr<store::Shard> shard) override;
  void StartAt(PartitionId partition, Offset offset) override;
  void ReplayUntil(PartitionId partition, Offset offset) override;
  void SkipTo(PartitionId partition, Offset offset) override;
  bool Add(PartitionId partition, SourceRecord record) override;
  bool Revoke(PartitionId partition, Clock::SteadyTime deadline) override;
  void Drop(PartitionId partition) override;
  bool IsOpen(PartitionId partition) const override { return lanes_.count(partition) > 0; }

 private:
  struct OpenLane {
    uint64_t id;  // tells this lane from an earlier one of the same partition
    std::unique_ptr<Lane> lane;
  };

  bool transactional() const { return sink_.transactional(); }
  void SubmitBatches(OpenLane& open, bool flush);
  // Exactly once: when the checkpoint interval is over (or `force`), every
  // lane stops, ships its changelog records, and one transaction commits
  // them with the input offsets; then each lane checkpoints locally. Takes
  // several calls; `*committed` says when one completed.
  Status AdvanceTransaction(bool force, bool* committed = nullptr);
  // Commits a transaction now, within `deadline`: false if it could not be.
  bool CommitBefore(Clock::SteadyTime deadline);
  // The transaction is aborted: every lane goes back to its last
  // checkpoint (the shard reopened as it was, the input read again from
  // there), so what the aborted transaction held is decided again.
  Status RollBack(std::string why);  // by value: callers pass rollback_, which it resets
  // Shutting down, the transaction failed: rolls back and decides again
  // what each lane had decided, within `deadline`; reading stops after.
  Status DecideAgainBefore(Clock::SteadyTime deadline);
  // Hands prepared batches to their lanes; false if there were none.
  bool DispatchCompletions();
  Status ProcessAll();
  Status CheckpointAndCommit();
  void ApplyBackpressure();
  Status FinishLanesAtTheirEnd();
  // How long the next Poll may wait for something to happen.
  Duration NextWait() const;
  // All of a lane's records read so far are in: no reason to linger.
  bool AtEnd(const Lane& lane) const;
  // Processes, acknowledges and checkpoints everything of one lane, and
  // commits it; false if that failed or was not done by `deadline`.
  bool Drain(OpenLane& open, Clock::SteadyTime deadline);
  void Close(PartitionId partition);
  // Closes every lane (shutdown, destruction), telling the stage.
  void CloseAll();
  void Wait(Duration wait);

  Source& source_;
  Sink& sink_;
  Stage& stage_;
  const ShardOpener open_shard_;
  const PipelineOptions options_;
  const Clock& clock_;

  std::map<PartitionId, OpenLane> lanes_;
  uint64_t next_lane_id_ = 1;
  Backpressure backpressure_;
  engine::VerdictCounts counts_;
  Status fatal_;  // set where no status can be returned (a revocation)
  bool abandoned_ = false;
  // Exactly once: a commit is under way (lanes asked to stop), and when the
  // last one completed.
  bool committing_ = false;
  Clock::SteadyTime commit_started_;
  Clock::SteadyTime last_commit_;
  std::map<PartitionId, Offset> replay_until_;
  // Why the open transaction must be aborted: set where lanes may not be
  // reopened (inside a rebalance), acted on by the next Step().
  std::optional<std::string> rollback_;
  // The rollback's cause is a commit the group refused because it no
  // longer counts this member: no commit can succeed before it rejoins.
  bool member_gone_ = false;
  // Declared before the pool: on destruction the pool finishes its queued
  // batches into it.
  CompletionQueue completions_;
  engine::PreparePool pool_;
};

}  // namespace pagesieve::pipeline
