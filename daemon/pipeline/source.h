#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "common/types.h"
#include "pipeline/source_record.h"

namespace pagesieve::store {
class Shard;
}

namespace pagesieve::pipeline {

// What a source may do to the pipeline it feeds: give it partitions (lanes),
// take them away, and hand it records. Implemented by the Pipeline; the
// source calls it only from within Source::Poll, on the pipeline's thread.
class Lanes {
 public:
  virtual ~Lanes() = default;

  // The partition is now this process's: opens its lane and its shard.
  // Returns the input offset its state was checkpointed at, if any, so the
  // source can choose where to start.
  virtual StatusOr<std::optional<Offset>> Open(PartitionId partition) = 0;
  // The same with the partition's shard opened already, elsewhere (off this
  // thread: BackgroundOpener); the lane takes it. Null for a stage without
  // state.
  virtual StatusOr<std::optional<Offset>> OpenWith(PartitionId partition,
                                                   std::unique_ptr<store::Shard> shard) = 0;
  // The open lane starts at `offset`: records before it are not decided
  // again. Without a call, the lane's first record sets its start.
  virtual void StartAt(PartitionId partition, Offset offset) = 0;
  // Exactly once: the open lane's records before `offset` are decided only
  // to bring its state up to the group's committed position; their output
  // was committed by an earlier run (Lane::ReplayUntil).
  virtual void ReplayUntil(PartitionId partition, Offset offset) = 0;
  // A record for the open lane of `partition`, in lane-offset order. False
  // when it is not wanted: no such lane, or its lane already decided it (a
  // source may deliver a little before a seek).
  virtual bool Add(PartitionId partition, SourceRecord record) = 0;
  // No record before `offset` is left to read for the open lane (what lies
  // between is transaction markers, aborted or compacted records): its
  // position moves there once what it read is processed.
  virtual void SkipTo(PartitionId partition, Offset offset) = 0;
  // The partition is being taken away in an orderly way: decides,
  // acknowledges and checkpoints what was read (and the source commits it)
  // before `deadline`, then closes the lane. False when that was not done
  // in time or the pipeline already failed: the next owner decides those
  // records again from the last checkpoint.
  virtual bool Revoke(PartitionId partition, Clock::SteadyTime deadline) = 0;
  // The partition is gone already (another member may own it): drops its
  // lane without checkpointing anything.
  virtual void Drop(PartitionId partition) = 0;
  virtual bool IsOpen(PartitionId partition) const = 0;
};

// Where records come from: a Kafka consumer or files. Used from the
// pipeline's thread only.
class Source {
 public:
  virtual ~Source() = default;

  // Hands what is available to `lanes`: records, and partitions gained or
  // lost. Waits up to `wait` when nothing is available and the source can
  // wait for more (a paused or finished file source returns at once). An
  // error is fatal for the run.
  virtual Status Poll(Duration wait, Lanes& lanes) = 0;

  // Whether Wake() ends a Poll's wait. The pipeline then waits for the
  // prepare pool in Poll, one wait for both, rather than polling each
  // briefly in turn while records are at the pool.
  virtual bool Wakeable() const { return false; }
  // Makes a Poll that waits now return at once, or the next one when none
  // waits. Thread-safe: the pool's workers call it as batches come back.
  virtual void Wake() {}

  // Everything before each offset is decided, acknowledged and checkpointed:
  // a Kafka source commits it (synchronously when `sync`); files have
  // nothing to commit.
  virtual void Commit(const std::vector<std::pair<PartitionId, Offset>>& offsets, bool sync) = 0;

  // An aborted transaction: the partition is read again from `offset`. Only
  // a source feeding a transactional sink is asked.
  virtual Status Rewind(PartitionId partition, Offset offset) {
    (void)partition;
    (void)offset;
    return Status::Internal("this source cannot rewind");
  }

  // Backpressure: stop and restart reading these partitions.
  virtual void Pause(const std::vector<PartitionId>& partitions) = 0;
  virtual void Resume(const std::vector<PartitionId>& partitions) = 0;

  // The first lane offset of `partition` that will not be read (the end of
  // the files, a backfill's end), once known.
  virtual std::optional<Offset> EndOf(PartitionId partition) const = 0;
  // The partition's lane reached its end and is checkpointed and committed;
  // the pipeline has closed it. The source reads nothing more from it.
  virtual void Finished(PartitionId partition) = 0;
  // Nothing more will be read: every end is known and every lane finished.
  virtual bool Exhausted() const = 0;
};

}  // namespace pagesieve::pipeline
