#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/status_or.h"
#include "store/shard.h"
#include "store/changelog.h"
#include "store/shard_db.h"

namespace pagesieve::store {

// The stored half of a full snapshot of a shard for the changelog
// (docs/changelog.md, "Seeding"): a checkpoint of a shard the changelog
// never received ships every live entry, not only those written since the
// last checkpoint.
//
// Calls `fn` with an entry record for every key the last commit stored in
// `families` that the next commit neither writes nor deletes, and that
// `is_dead` does not reject (a dead entry would only travel to be swept).
// The keys the next commit writes are the overlay's, which the checkpoint
// ships after these: together they are the whole shard as the checkpoint
// leaves it.
//
// Reads the database as of the last commit without filling the block cache
// (the walk would evict what lookups need). Records pass to `fn` one at a
// time: valid during the call only.
Status ForEachStoredEntry(ShardDb* db, const std::vector<Cf>& families,
                          const std::function<bool(Cf cf, std::string_view value)>& is_dead,
                          const ChangeFn& fn);

// Calls `fn` with every key in [begin, end) of `cf` that the last commit
// stored and the next commit neither writes nor deletes, in key order; read
// like the above.
Status ForEachStoredInRange(ShardDb* db, Cf cf, std::string_view begin, std::string_view end,
                            const std::function<void(std::string_view key,
                                                     std::string_view value)>& fn);

// A key range of a column family for WalkStored ([begin, end); an empty
// end: to the end of the family), and whether its dead entries are left out.
struct StoredRange {
  Cf cf;
  std::string begin;
  std::string end;
  bool skip_dead = true;
};

// ForEachStoredEntry and ForEachStoredInRange in pieces: calls `fn` with the
// stored keys of `ranges`, in order, that the next commit neither writes nor
// deletes (and, where asked, that `is_dead` does not reject), visiting at
// most `max_keys` keys from where `*cursor` stands and moving it on; true
// once every range is walked. Each call reads the database as it is then:
// the caller keeps it unchanged between calls.
StatusOr<bool> WalkStored(ShardDb* db, const std::vector<StoredRange>& ranges,
                          const std::function<bool(Cf cf, std::string_view value)>& is_dead,
                          size_t max_keys, SnapshotCursor* cursor,
                          const std::function<void(Cf cf, std::string_view key,
                                                   std::string_view value)>& fn);

}  // namespace pagesieve::store
