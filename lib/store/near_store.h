#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "store/codec.h"
#include "store/shard.h"
#include "store/shard_db.h"
#include "store/simhash_index.h"
#include "store/simhash_tables.h"

namespace pagesieve::store {

// How far the time an entry was last indexed at (its indexed_at) may
// trail its last_seen. Touching an entry re-indexes it only when the gap
// would exceed this, and it is the width of the index's generations
// (simhash_index.h): a generation is dropped `grace` after the newest entry
// it can hold died.
inline Duration NearIndexGrace(Duration ttl) { return std::max(ttl / 8, Duration(1)); }

// The SimHash store of one shard: entries (scope, simhash) → origin,
// last_seen in the near column family, found through a SimHashIndex of
// NearLayout::tables() permuted tables held in memory and rebuilt from the
// entries when the shard opens. Not thread-safe (part of one shard).
class NearStore {
 public:
  NearStore(ShardDb* db, const NearLayout* layout, Duration ttl, const EventTime* watermark);

  // Indexes every entry of the near column family that may be live at the
  // watermark (at open: the index is not stored).
  Status BuildIndex();

  StatusOr<std::optional<NearMatch>> Find(uint64_t scope_id, uint64_t simhash, int max_distance,
                                          const OriginFilter& filter);
  Status Insert(uint64_t scope_id, uint64_t simhash, const Origin& origin);
  Status Touch(uint64_t scope_id, uint64_t simhash, EventTime t);
  // The watermark moved: frees the index generations nothing live is in.
  void DropExpired();

  size_t index_size() const { return index_.size(); }
  size_t index_memory_bytes() const { return index_.MemoryBytes(); }

 private:
  using Candidate = SimHashIndex::Candidate;

  // The live entry of (scope, simhash) accepted by `filter`, if any.
  StatusOr<std::optional<NearEntry>> LiveEntry(uint64_t scope_id, uint64_t simhash,
                                               const OriginFilter& filter);
  void PutEntry(uint64_t scope_id, uint64_t simhash, const NearEntry& entry);

  ShardDb* db_;
  const NearLayout* layout_;
  const Duration ttl_;
  const Duration grace_;
  const EventTime* watermark_;
  SimHashIndex index_;
  std::vector<Candidate> candidates_;  // reused across calls
};

}  // namespace pagesieve::store
