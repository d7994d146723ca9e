#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/types.h"
#include "store/generation_ring.h"

namespace pagesieve::store {

// The LSH bands of the near store's MinHash sketches, in memory
// (docs/state-store.md, "Near store"). RocksDB holds the entries with their
// sketches; this index only says which stored SimHashes may share a band key
// with a query's sketch, and is rebuilt from the entries when a shard opens,
// like SimHashIndex.
//
// Each indexed entry gets an id in an entry table (id -> SimHash), and each
// band an array of buckets of 64-bit words, one per entry:
//
//   [generation slot 5][band key bits 58..28: the tag, 31][entry id 28]
//
// An entry's bucket in band i is the top bits of its key for band i, so the
// top bits the slot replaces come back from the bucket index, as in
// SimHashIndex, and a word compares 36 bits of the key: 36 - bucket bits
// after the bucket (18 at 10 M entries, 14 at 160 M). The buckets double as
// the index grows, to keep about kTargetPerBucket words each, and halve as
// it shrinks. A lookup scans one bucket per band, comparing tags; a tag
// match is a candidate, never a verdict: the caller reads each candidate's
// entry and compares the sketches themselves (LshBands::ShareBand), as it
// must for scope and liveness anyway (the index knows no scopes).
//
// Expiry as in SimHashIndex: every word and entry carries its generation's
// slot (GenerationRing); dropping a generation sweeps its words out of the
// buckets and frees its ids for reuse. An entry indexed again (the store
// re-indexes one touched long after it was indexed) gets a new id and new
// words, and is found twice until its older generation goes.
//
// Not thread-safe (part of one shard).
class LshIndex {
 public:
  static constexpr size_t kTargetPerBucket = 64;
  static constexpr int kSlotBits = GenerationRing::kSlotBits;
  static constexpr int kIdBits = 28;
  // Entries the index can hold at once (268 M: ~60 GB at 25 bands).
  static constexpr size_t kMaxEntries = size_t{1} << kIdBits;
  static constexpr int kMaxBucketBits = 24;

  // `bands` band keys per entry; generations `width` of event time wide.
  LshIndex(int bands, Duration width);

  // Sizes the buckets for `expected` entries at once (the rebuild at open).
  void Reserve(size_t expected);
  // Indexes the entry `simhash` under its band keys, keys[i] in band i, in
  // the generation of `indexed_at`. Ignored when that generation has been
  // dropped. False, and nothing indexed, when kMaxEntries are indexed.
  bool Add(uint64_t simhash, std::span<const uint64_t> keys, EventTime indexed_at);
  // Drops the generations that end before `oldest`.
  void DropBefore(EventTime oldest);
  // Appends the SimHash of every entry whose key in some band has the tag
  // of keys[i] in band i: every entry sharing a band key, once per band and
  // generation that holds it, and now and then one that only shares a tag.
  void Collect(std::span<const uint64_t> keys, std::vector<uint64_t>* out) const;

  int bands() const { return bands_; }
  // Entries indexed, over all generations.
  size_t size() const { return size_; }
  // Generations holding entries.
  size_t generations() const { return ring_.generations(); }
  // Heap bytes held: buckets, their contents and the entry table, allocator
  // headers included.
  size_t MemoryBytes() const;

 private:
  using Bucket = std::vector<uint64_t>;

  static constexpr uint64_t kIdMask = (uint64_t{1} << kIdBits) - 1;
  static constexpr uint64_t kBelowSlot = ~uint64_t{0} >> kSlotBits;
  static constexpr uint64_t kTagMask = kBelowSlot & ~kIdMask;
  static constexpr uint8_t kFreeId = 0xff;  // slots_of_ of an id not in use

  static int SlotOf(uint64_t word) { return static_cast<int>(word >> (64 - kSlotBits)); }

  int BitsFor(size_t n) const;  // bucket bits for n entries per band
  void Resize(int bits);
  // Removes the words and frees the ids of the slots in `mask` (bit s: slot s).
  void Sweep(uint32_t mask);
  void FreeIds(uint32_t mask);
  uint32_t NewId(uint64_t simhash, int slot);
  size_t BucketIndex(int band, uint64_t key) const {
    return (static_cast<size_t>(band) << bits_) | (key >> (64 - bits_));
  }

  const int bands_;
  GenerationRing ring_;
  int bits_ = kSlotBits;  // each band has 1 << bits_ buckets
  // Bucket b of band i is buckets_[(i << bits_) | b].
  std::vector<Bucket> buckets_;
  // The entry table: id -> SimHash and its generation's slot (kFreeId: the
  // id is free, and listed in free_ids_).
  std::vector<uint64_t> simhashes_;
  std::vector<uint8_t> slots_of_;
  std::vector<uint32_t> free_ids_;
  size_t size_ = 0;
};

}  // namespace pagesieve::store
