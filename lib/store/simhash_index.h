#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/types.h"
#include "store/generation_ring.h"
#include "store/near_rows.h"
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
// prefix in a table is in the query's bucket of that table. The number of
// buckets doubles as the index grows, to keep about kTargetPerBucket
// SimHashes in each, and halves as it shrinks. A lookup reads one bucket per table: a few cache
// misses.
//
// The index does not know scopes: a candidate may belong to another scope
// of the shard (or be dead, or be listed twice); the caller verifies each
// against its entry, as it must for liveness anyway.
//
// Expiry without deletes of single entries: each SimHash is tagged with the
// generation of the time it was indexed (`width` of event time each), and a
// generation is dropped whole once no entry live at the watermark can be in
// it: one pass over the buckets removes its SimHashes. The store keeps every
// live entry indexed at a time at most `width` before its last_seen (it
// re-indexes an entry touched later than that), so a generation can go once
// its newest time is older than watermark - ttl - width.
//
// The tag costs no memory: all SimHashes of a bucket share its top bits, so
// a stored value keeps its generation's slot (GenerationRing) in its top
// kSlotBits bits, and the bucket index gives the real ones back. Not
// thread-safe (part of one shard).
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

  static constexpr size_t kTargetPerBucket = 64;
  static constexpr int kSlotBits = GenerationRing::kSlotBits;
  static constexpr int kMaxBucketBits = 24;

  // Every layout's prefix has at least kSlotBits bits (NearLayout allows at
  // most 8 blocks of disagreement, so a prefix block has 7 bits or more).
  SimHashIndex(const NearLayout* layout, Duration width);

  // Sizes the buckets for `expected` SimHashes at once, as the rebuild at
  // open knows roughly how many come: saves regrowing them step by step.
  void Reserve(size_t expected);
  // Indexes `simhash` in the tables of `rows` (a routed near owner's share)
  // in the generation of `indexed_at`. Ignored when that generation has
  // been dropped: nothing indexed then can still be live.
  void Add(uint64_t simhash, EventTime indexed_at, const NearRows& rows = NearRows::All());
  // Drops the generations that end before `oldest`: the earliest time a
  // live entry can have been indexed at.
  void DropBefore(EventTime oldest);
  // Appends every indexed SimHash within `max_distance` of `simhash`, with
  // its distance: each once per generation and table that holds it.
  void Collect(uint64_t simhash, int max_distance, std::vector<Candidate>* out) const;
  // Whether `simhash` itself is indexed in table 0, in any generation: for
  // entries indexed with every row, false means the store holds no live
  // entry for it in any scope.
  bool Contains(uint64_t simhash) const;

  // SimHashes indexed (in one table or more), over all generations.
  size_t size() const;
  // Their rows: one per table each is in.
  size_t rows() const { return rows_; }
  // Generations holding SimHashes.
  size_t generations() const;
  // Heap bytes held: bucket arrays and their contents, allocator headers included.
  size_t MemoryBytes() const;

 private:
  using Bucket = std::vector<uint64_t>;

  int BitsFor(size_t n) const;  // bucket bits for n SimHashes per table
  void Resize(int bits);
  // Removes the SimHashes of the slots in `mask` (bit s: slot s).
  void Sweep(uint32_t mask);
  size_t BucketIndex(int table, uint64_t permuted) const {
    return (static_cast<size_t>(table) << bits_) | (permuted >> (64 - bits_));
  }
  const Bucket& BucketOf(int table, uint64_t permuted) const {
    return buckets_[BucketIndex(table, permuted)];
  }
  // The stored form: the slot in place of the top bits the bucket implies.
  static uint64_t Tagged(uint64_t permuted, int slot) {
    return (permuted & kBelowSlot) | (static_cast<uint64_t>(slot) << (64 - kSlotBits));
  }
  static int SlotOf(uint64_t stored) { return static_cast<int>(stored >> (64 - kSlotBits)); }
  static constexpr uint64_t kBelowSlot = ~uint64_t{0} >> kSlotBits;

  const NearLayout* layout_;
  const int max_bits_;
  GenerationRing ring_;
  int bits_ = kSlotBits;  // each table has 1 << bits_ buckets
  // Bucket b of table t is buckets_[(t << bits_) | b].
  std::vector<Bucket> buckets_;
  size_t size_ = 0;  // what ring_ counts
  size_t rows_ = 0;
  // The rows of each generation slot, to take off rows_ when it goes.
  std::vector<size_t> rows_of_slot_ = std::vector<size_t>(size_t{1} << kSlotBits);
};

}  // namespace pagesieve::store
