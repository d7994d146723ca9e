#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"
#include "store/bloom/bit_arena.h"
#include "store/fuse/binary_fuse.h"
#include "store/fuse/fuse_format.h"
#include "store/fuse/fuse_geometry.h"
#include "store/time_decayed_filter.h"

namespace pagesieve::store::fuse {

// A rebuild of the time-decayed fuse filter, cut so that its costly part
// (reading the key logs, sorting, peeling) can run on another thread than
// the shard's: the plan is taken on the shard's thread and holds copies of
// everything it needs, BuildFilters() reads only the plan and committed
// pages, and the filter installs the result on its own thread
// (time_decayed_fuse.h).

// One live generation's key log: `stored.chunks` pages already committed,
// then the keys not yet written (a copy).
struct LogSnapshot {
  int slot = 0;
  LogSlot stored;
  std::vector<uint64_t> pending;
  bool open = false;  // the open generation's: into the Bloom filter, not the sealed one
};

struct RebuildPlan {
  int64_t oldest = 0;  // sealed generations are [oldest, newest)
  int64_t newest = 0;  // the open generation
  uint32_t param_tag = 0;
  FuseGeometry geometry;
  std::vector<LogSnapshot> logs;
};

struct RebuiltFilters {
  Status status;  // a log chunk missing or foreign: the filter cannot answer
  BinaryFuse sealed;
  bloom::BitArena open;
  uint64_t open_bits_set = 0;
  int64_t oldest = 0;
  int64_t newest = 0;
};

// Reads the plan's logs (committed chunks through `store`, then the copies
// of pending keys) and builds the sealed filter and the open generation's
// Bloom blocks. Safe on any thread while the shard goes on writing: it only
// reads pages that an earlier checkpoint committed, which nothing rewrites
// while the generation is live.
RebuiltFilters BuildFilters(const RebuildPlan& plan, const FilterPageStore* store);

// Sets a key's probe bits in its block of `blocks`; returns how many bits
// were not set before.
int InsertIntoOpenBlocks(char* blocks, const FuseGeometry& geometry, uint64_t key_hash);

}  // namespace pagesieve::store::fuse
