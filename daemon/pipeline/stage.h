#pragma once

#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "engine/prepare_pool.h"
#include "engine/prepared_record.h"
#include "engine/verdict_counts.h"
#include "pipeline/output_message.h"
#include "pipeline/source_record.h"
#include "store/shard.h"
#include "store/tier_stores.h"

namespace pagesieve::pipeline {

// What a pipeline does with its records: how the pool prepares each one,
// and what a lane makes of a prepared record. pagesieve dedup and the
// deciding stage of pagesieve run decide (DecideStage); the re-keying stage
// of pagesieve run republishes by scope (run/rekey_stage.h); the routed
// stages stamp records with their place in the order and run the owners of
// global dedup (daemon/routed, docs/global-routing.md).
//
// Process() and DeadLetter() run on the pipeline's thread, in each lane's
// order; the prepare functions run on the pool's workers. The lane hooks
// (LaneOpened and the others) run on the pipeline's thread too; a stage
// whose work is each record's alone needs none of them.
class Stage {
 public:
  virtual ~Stage() = default;

  // Makes one prepare function per pool worker.
  virtual engine::PreparePool::PrepareFnFactory PrepareFactory() const = 0;
  // Whether its lanes keep state: a shard each, checkpointed.
  virtual bool stateful() const = 0;

  // The output of one prepared record, appended to `out`: one message for a
  // verdict or a repartition record, any number for a routed stage. `stores`
  // is the lane's (null when the stage keeps no state). Counts what it did
  // into `counts`. An error is never the record's fault (storage failed, an
  // internal topic held what pagesieve did not write): the lane stops.
  virtual Status Process(engine::PreparedRecord record, const SourceRecord& input,
                         store::TierStores* stores, engine::VerdictCounts& counts,
                         std::vector<OutputMessage>* out) = 0;
  // The output for a record the pool refused (`error` says why).
  virtual OutputMessage DeadLetter(const SourceRecord& input, const Status& error,
                                   engine::VerdictCounts& counts) = 0;

  // A lane opened on `shard` (null without state), and again after a
  // rolled-back transaction reopened it at its checkpoint: a stage that
  // keeps work of its own beside the shard takes it back from there. An
  // error stops the run.
  virtual Status LaneOpened(PartitionId partition, store::Shard* shard) {
    (void)partition;
    (void)shard;
    return Status::Ok();
  }
  // The lane closed; its shard is closed after this.
  virtual void LaneClosed(PartitionId partition) { (void)partition; }
  // Where a lane stands after a round of processing.
  struct LaneRound {
    bool at_end = false;   // everything up to its end is processed (a backfill)
    bool drained = false;  // nothing it read is left to process
  };
  // After each round of processing: output that belongs to no one record,
  // sent after the records' own.
  virtual Status AfterProcessing(PartitionId partition, const LaneRound& round,
                                 std::vector<OutputMessage>* out) {
    (void)partition;
    (void)round;
    (void)out;
    return Status::Ok();
  }
  // Exactly once: a transaction is about to commit the lane, and nothing
  // more is processed until it has. Output that need go only once per
  // transaction goes now, after everything the lane processed: a routed
  // stage's promises to the stage it feeds, which a reader sees only when
  // the transaction commits, so that the latest says all that one per
  // round said (docs/global-routing.md).
  virtual void BeforeCommit(PartitionId partition, std::vector<OutputMessage>* out) {
    (void)partition;
    (void)out;
  }
  // Whether the stage holds output for BeforeCommit: the lane then has
  // something to commit though it read nothing new.
  virtual bool HoldsOutput(PartitionId partition) const {
    (void)partition;
    return false;
  }
  // The lane's shard is about to be checkpointed (and its changelog records
  // taken): what the stage must hold in it goes there now.
  virtual void BeforeCheckpoint(PartitionId partition, store::Shard& shard) {
    (void)partition;
    (void)shard;
  }
};

}  // namespace pagesieve::pipeline
