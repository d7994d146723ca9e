#pragma once

#include "common/status_or.h"
#include "engine/prepare_pool.h"
#include "engine/prepared_record.h"
#include "engine/verdict_counts.h"
#include "pipeline/output_message.h"
#include "pipeline/source_record.h"
#include "store/tier_stores.h"

namespace pagesieve::pipeline {

// What a pipeline does with its records: how the pool prepares each one,
// and what a lane makes of a prepared record. pagesieve dedup and the
// deciding stage of pagesieve run decide (DecideStage); the re-keying stage
// of pagesieve run republishes by scope (run/rekey_stage.h).
//
// Process() and DeadLetter() run on the pipeline's thread, in each lane's
// order; the prepare functions run on the pool's workers.
class Stage {
 public:
  virtual ~Stage() = default;

  // Makes one prepare function per pool worker.
  virtual engine::PreparePool::PrepareFnFactory PrepareFactory() const = 0;
  // Whether its lanes keep state: a shard each, checkpointed.
  virtual bool stateful() const = 0;

  // The output for one prepared record; `stores` is the lane's (null when
  // the stage keeps no state). Counts what it did into `counts`. An error is
  // never the record's fault (storage failed): the lane stops.
  virtual StatusOr<OutputMessage> Process(engine::PreparedRecord record, const SourceRecord& input,
                                          store::TierStores* stores,
                                          engine::VerdictCounts& counts) = 0;
  // The output for a record the pool refused (`error` says why).
  virtual OutputMessage DeadLetter(const SourceRecord& input, const Status& error,
                                   engine::VerdictCounts& counts) = 0;
};

}  // namespace pagesieve::pipeline
