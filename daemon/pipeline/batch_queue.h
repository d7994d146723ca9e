#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "common/clock.h"
#include "engine/prepare_pool.h"
#include "pipeline/source_record.h"

namespace pagesieve::pipeline {

// One lane's records on their way through the prepare pool: gathered into
// batches (by size, or after a linger), handed to the pool, and taken back
// strictly in the order they were read, whatever order the pool finishes in.
//
// Each batch's records are shared by the queue (until they are decided) and
// the pool's batch (while it works on views of them). Not thread-safe: the lane's thread only.
class BatchQueue {
 public:
  struct Batch {
    // Shared with the PrepareBatch the pool works on: whichever of the two
    // goes last frees the records.
    std::shared_ptr<const std::vector<SourceRecord>> records;
    std::unique_ptr<engine::PrepareBatch> prepared;  // set once the pool is done
  };

  BatchQueue(size_t batch_records, Duration linger, const Clock& clock)
      : batch_records_(batch_records), linger_(linger), clock_(clock) {}

  void Add(SourceRecord record);
  // A batch ready for the pool, of at most batch_records records: when that
  // many are open, when the oldest open record waited the linger, or when
  // `flush` is set; null otherwise. `seq` numbers it for Prepared().
  std::unique_ptr<engine::PrepareBatch> Take(bool flush, uint64_t* seq);
  // The pool finished batch `seq`.
  void Prepared(uint64_t seq, std::unique_ptr<engine::PrepareBatch> batch);

  // The next batch in reading order once the pool has prepared it, else null.
  Batch* Next();
  // Forgets the batch Next() returned: it is decided.
  void PopNext();

  bool empty() const { return open_.empty() && in_flight_.empty(); }
  // When the open records' batch goes to the pool by the linger alone; none
  // without open records.
  std::optional<Clock::SteadyTime> linger_ends() const {
    if (open_.empty()) return std::nullopt;
    return open_since_ + linger_;
  }
  // Next() would return a batch.
  bool next_prepared() const;
  // Handed to the pool and not back yet.
  bool waiting_for_pool() const;

 private:
  const size_t batch_records_;
  const Duration linger_;
  const Clock& clock_;
  std::deque<SourceRecord> open_;  // not yet handed to the pool
  Clock::SteadyTime open_since_{};
  std::map<uint64_t, Batch> in_flight_;  // handed to the pool, by sequence
  uint64_t next_seq_ = 0;                // next batch to hand out
  uint64_t next_to_decide_ = 0;          // next batch to take back
};

}  // namespace pagesieve::pipeline
