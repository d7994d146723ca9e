#pragma once

#include <cstdint>

#include "common/status_or.h"
#include "store/rocks_shard.h"
#include "store/shard_restore.h"

namespace pagesieve::store {

// Maintenance and diagnostics of an open RocksDB shard, for tests and
// benchmarks; nothing the daemon runs. Kept out of RocksShard so that the
// production class holds only what the daemon needs.
//
// Not thread-safe, like the shard; the shard must outlive the probe.
class ShardProbe {
 public:
  // `shard` must be a RocksShard (anything StateEnv opens is).
  explicit ShardProbe(Shard& shard);

  // Compacts every column family fully, removing what is dead at the durable
  // watermark now rather than whenever RocksDB gets to it.
  Status CompactAll();
  // Keys physically stored (checkpointed) in one column family: expired
  // entries not yet compacted away included. Reads the whole family.
  StatusOr<uint64_t> CountKeys(Cf cf);
  // Sizes of one column family, for benchmarks and capacity planning.
  struct CfFigures {
    uint64_t keys = 0;          // RocksDB's estimate
    uint64_t sst_bytes = 0;     // live SST files
    uint64_t index_bytes = 0;   // SST index blocks (held in the block cache)
    uint64_t filter_bytes = 0;  // SST Bloom filter blocks (held in the block cache)
    uint64_t memtable_bytes = 0;
  };
  StatusOr<CfFigures> Figures(Cf cf);
  // Flushes every memtable to SST files (so Figures() sees all the data).
  Status FlushAll();
  // Whether RocksDB has flushes or compactions running or due: a benchmark
  // waits for false so that it measures a settled tree, not the debt of its
  // own bulk fill.
  bool BackgroundWorkPending() const;

 private:
  ShardDb& db() const { return *shard_.db_; }

  RocksShard& shard_;
};

// Holds and lets go the flushes and compactions of a shard being restored,
// for tests: with them held, its memtables fill and RocksDB stalls writers.
class RestoreProbe {
 public:
  explicit RestoreProbe(ShardRestore& restore) : restore_(restore) {}
  Status PauseBackgroundWork();
  Status ContinueBackgroundWork();

 private:
  ShardRestore& restore_;
};

}  // namespace pagesieve::store
