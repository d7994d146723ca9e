#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "store/shard_db.h"

namespace pagesieve::store {

// Walks a shard's entry column families a slice at a time and finds the
// entries dead at a watermark, so that a checkpoint can delete them and ship
// their tombstones to the changelog (docs/changelog.md, "Expired entries
// leave the changelog too").
//
// Why not leave it to compaction alone: the expiry compaction filter sees
// only the files compaction rewrites, and RocksDB can leave a shard's
// largest level alone for a day (periodic compaction), however far event
// time moves meanwhile (a backfill covers weeks in hours). The changelog
// would then keep entries long dead. The sweep is paced by the writes
// instead: the caller gives each step a budget of keys proportional to what
// its checkpoint wrote, so a whole pass over the state completes within a
// bounded number of writes.
//
// Reads the database as of the last commit (not the overlay), without
// filling the block cache. Not thread-safe (part of one shard).
class ExpirySweep {
 public:
  struct Family {
    Cf cf;
    Duration ttl;
  };
  explicit ExpirySweep(std::vector<Family> families) : families_(std::move(families)) {}

  // Visits up to `budget` stored keys from where the last step stopped,
  // going round the families at most once, and calls `dead(cf, key)` for
  // each key that is dead at `watermark` and that the next commit neither
  // writes nor deletes. `key` is valid during the call only.
  Status Step(ShardDb* db, EventTime watermark, uint64_t budget,
              const std::function<void(Cf cf, std::string_view key)>& dead);

  // Whether `value`, stored in `cf`, is dead at `watermark`; false for a
  // family the sweep does not cover.
  bool IsDead(Cf cf, std::string_view value, EventTime watermark) const;

 private:
  // Visits keys of family `index` in [from, to) (empty: that end of the
  // family). Stops early when the budget runs out, leaving the resume point.
  // Returns whether the range was finished.
  StatusOr<bool> Visit(ShardDb* db, size_t index, std::string_view from, const std::string* to,
                       EventTime watermark, uint64_t* budget,
                       const std::function<void(Cf cf, std::string_view key)>& dead);

  std::vector<Family> families_;
  size_t family_ = 0;   // where the next step starts
  std::string resume_;  // first key of families_[family_] not visited; empty: its start
};

}  // namespace pagesieve::store
