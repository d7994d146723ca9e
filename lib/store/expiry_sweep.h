#pragma once

#include <rocksdb/iterator.h>

#include <cstdint>
#include <functional>
#include <memory>
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
// Reads the database (not the overlay), without filling the block cache.
// Not thread-safe (part of one shard).
//
// Each family is walked through one iterator kept from step to step (a
// view): a new iterator over RocksDB's hash memtables copies and sorts
// every entry of the family's memtables first, which made every checkpoint
// of a busy shard spend 40-300 ms on the shard's thread (issue 22: in
// exactly-once mode no record is decided meanwhile). A view is renewed
//  - once the family's memtable it copied was sealed and flushed (else the
//    view would keep the flushed memtable's memory alive);
//  - when the memtable has grown by 1/kStaleRatio of its entries since the
//    view was made, so that the copies cost a bounded amount per write and
//    the sweep falls at most that far behind the writes;
//  - after any write while the memtable is small (kCheapEntries): the copy
//    is cheap.
// A key a view finds dead is read again before it is given: it may have
// been written since.
class ExpirySweep {
 public:
  struct Family {
    Cf cf;
    Duration ttl;
  };
  static constexpr uint64_t kStaleRatio = 4;
  static constexpr uint64_t kCheapEntries = 4096;

  explicit ExpirySweep(std::vector<Family> families)
      : families_(std::move(families)), views_(families_.size()) {}
  ExpirySweep(const ExpirySweep&) = delete;
  ExpirySweep& operator=(const ExpirySweep&) = delete;
  ~ExpirySweep();

  // Visits up to `budget` stored keys from where the last step stopped,
  // going round the families at most once, less those WalkAhead() visited
  // since the last step, and calls `dead(cf, key)` for each key found
  // dead, now or ahead, that is dead at `watermark` as stored now and that
  // the next commit neither writes nor deletes. `key` is valid during the
  // call only.
  Status Step(ShardDb* db, EventTime watermark, uint64_t budget,
              const std::function<void(Cf cf, std::string_view key)>& dead);
  // Visits up to `max_keys` keys of the next step's budget now (taken to be
  // the last step's), keeping the dead ones for it: the reading is done
  // while the shard is idle, not while its checkpoint holds decisions up
  // (issue 22). Changes nothing the shard answers.
  //
  // A shard smaller than the budget is walked whole again by every call
  // and by the step, each at its own watermark: a step that trusted an
  // earlier round ahead would miss the entries that died since, the last
  // ones of a run among them (tried on 2026-12-02: the changelog kept up
  // to twice its bound, tests/integration/changelog_size_test.cc).
  Status WalkAhead(ShardDb* db, EventTime watermark, uint64_t max_keys);

  // Whether `value`, stored in `cf`, is dead at `watermark`; false for a
  // family the sweep does not cover.
  bool IsDead(Cf cf, std::string_view value, EventTime watermark) const;

 private:
  // Visits keys of family `index` in [from, to) (empty: that end of the
  // family). Stops early when the budget runs out, leaving the resume point.
  // Returns whether the range was finished.
  StatusOr<bool> Visit(ShardDb* db, size_t index, std::string_view from, const std::string* to,
                       EventTime watermark, uint64_t* budget);
  // Visits up to `budget` keys, going round at most once, keeping in
  // found_ those dead at `watermark` and not pending. Returns how many it
  // visited.
  StatusOr<uint64_t> Walk(ShardDb* db, EventTime watermark, uint64_t budget);

  // An iterator over one family, made when its memtables had been sealed
  // `sealed` times and the active one held `entries`.
  struct View {
    std::unique_ptr<rocksdb::Iterator> iterator;
    uint64_t sealed = 0;
    uint64_t entries = 0;
  };
  // The view of family `index`, made anew when due.
  rocksdb::Iterator* ViewOf(ShardDb* db, size_t index);

  std::vector<Family> families_;
  std::vector<View> views_;  // by family; destroyed before the database
  // Keys found dead by walks since the last step, checked again by it.
  std::vector<std::pair<Cf, std::string>> found_;
  uint64_t ahead_ = 0;       // keys walked ahead, not yet counted by a step
  uint64_t last_budget_ = 0; // the last step's budget: how far walks go ahead
  size_t family_ = 0;        // where the next step starts
  std::string resume_;  // first key of families_[family_] not visited; empty: its start
};

}  // namespace pagesieve::store
