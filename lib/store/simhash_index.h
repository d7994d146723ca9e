#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/types.h"
#include "store/simhash_tables.h"

namespace pagesieve::store {

// The permuted tables of the SimHash store, in memory (docs/state-store.md,
// "SimHash store"). RocksDB holds the entries; this index only says which
// stored SimHashes are within a distance of a query, and is rebuilt from the
// entries when a shard opens.
//
// Why in memory: as RocksDB keys (one per table per entry, scanned by
// prefix) the tables cost ten seeks per lookup and ten writes per insert,
// and the shard ran at 28,000 SimHash operations per core-second; the
// buckets below answer in a microsecond.
//
// Each table of the NearLayout is an array of buckets of permuted
// SimHashes; a SimHash's bucket is the top bits of its permutation, never
// more bits than the table's prefix, so every SimHash sharing a query's
// prefix in a table is in the query's bucket of that table. Buckets double
// as the index grows, to about kTargetPerBucket SimHashes each.
//
// The index does not know scopes: a candidate may belong to another scope
// of the shard (or be dead, or be listed twice); the caller verifies each
// against its entry, as it must for liveness anyway.
//
// Expiry without deletes: SimHashes are kept in generations by the time
// they were indexed (`width` of event time each), and a generation is
// dropped whole once no entry live at the watermark can be in it. The
// store keeps every live entry indexed at a time at most `width` before its
// last_seen (it re-indexes an entry touched later than that), so a
// generation can go once its newest time is older than watermark - ttl -
// width. Not thread-safe (part of one shard).
class SimHashIndex {
 public:
  struct Candidate {
    int distance;
    uint64_t simhash;
    friend bool operator<(const Candidate& a, const Candidate& b) {
      return a.distance != b.distance ? a.distance < b.distance : a.simhash < b.simhash;
    }
    friend bool operator==(const Candidate&, const Candidate&) = default;
  };

  static constexpr size_t kTargetPerBucket = 16;
  static constexpr int kMaxBucketBits = 24;

  SimHashIndex(const NearLayout* layout, Duration width);

  // Indexes `simhash` in the generation of `indexed_at`. Ignored when that
  // generation has been dropped: nothing indexed then can still be live.
  void Add(uint64_t simhash, EventTime indexed_at);
  // Drops the generations that end before `oldest`: the earliest time a
  // live entry can have been indexed at.
  void DropBefore(EventTime oldest);
  // Appends every indexed SimHash within `max_distance` of `simhash`, with
  // its distance: each once per generation and table that holds it.
  void Collect(uint64_t simhash, int max_distance, std::vector<Candidate>* out) const;

  // SimHashes indexed (per table), over all generations.
  size_t size() const;
  size_t generations() const { return generations_.size(); }
  // Heap bytes held: bucket arrays and their contents, allocator headers included.
  size_t MemoryBytes() const;

 private:
  struct Generation {
    int64_t id = 0;  // covers [id * width, (id + 1) * width)
    int bits = 0;    // each table has 1 << bits buckets
    size_t size = 0;
    // Bucket b of table t is buckets[(t << bits) | b]; holds permuted values.
    std::vector<std::vector<uint64_t>> buckets;
  };

  int64_t GenerationOf(EventTime t) const;
  Generation& GetOrCreate(int64_t id);
  void Grow(Generation& g) const;
  size_t Bucket(const Generation& g, uint64_t permuted) const {
    return g.bits == 0 ? 0 : static_cast<size_t>(permuted >> (64 - g.bits));
  }

  const NearLayout* layout_;
  const int64_t width_ms_;
  const int max_bits_;
  int64_t first_id_;                     // generations below it are dropped
  std::vector<Generation> generations_;  // by id, ascending
};

}  // namespace pagesieve::store
