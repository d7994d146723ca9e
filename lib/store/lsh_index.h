#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/types.h"
#include "store/generation_ring.h"
#include "store/near_rows.h"
#include "store/word_array.h"

namespace pagesieve::store {

// The LSH bands of the near store's MinHash sketches, in memory
// (docs/state-store.md, "Near store"). RocksDB holds the entries with their
// sketches; this index only says which stored SimHashes may share a band key
// with a query's sketch, and is rebuilt from the entries when a shard opens,
// like SimHashIndex.
//
// Each indexed entry gets an id in an entry table (id -> SimHash and its
// generation's slot), and each band a table of 64-bit words, one per entry:
//
//   [band key bits 63..28: the tag, 36][entry id 28]     (0: an empty word)
//
// A band's table is an ordered hash table (linear probing that keeps its
// words sorted by tag, Amble and Knuth 1974): a word's home is its tag
// scaled to the table (multiply-shift, so homes keep the order of tags),
// and it sits at or after its home, after every smaller tag. A lookup starts
// at the home and stops at the first larger tag or empty word: one cache
// line per band most of the time, and the lines of all bands are asked for
// at once so that their misses overlap. An insert shifts the rest of its
// run one word on. The tables hold at most kMaxLoad words per place; a
// rebuild a quarter larger (or smaller, after a drop) streams the words in
// order, so the tables stay between 68 % and 85 % full: about 10.5 bytes per
// entry and band.
//
// Measured against the alternatives (bench/store/shard_bench and a
// micro-benchmark, docs/state-store.md): buckets of ~64 words behind a
// vector each, as SimHashIndex has, cost two dependent cache misses and
// eight lines per band, and plain linear probing at this load scans three
// lines per band on a miss.
//
// A tag match is a candidate, never a verdict: the caller reads each
// candidate's entry and compares the sketches (LshBands::ShareBand), as it
// must for scope and liveness anyway (the index knows no scopes). The
// words a lookup compares share the top log2(homes) bits of their tags with
// the query's, so a stray match comes about 6 / 2^(36 - log2(homes)) times
// per band: once in ~300 lookups of 25 bands at 10 M entries (1.5 M homes),
// costing one more entry read.
//
// Expiry as in SimHashIndex: the entry table keeps each entry's generation
// slot (GenerationRing); dropping a generation rebuilds the tables without
// its words and frees its ids for reuse. An entry indexed again (the store
// re-indexes one touched long after it was indexed) gets a new id and new
// words, and is found twice until its older generation goes.
//
// Not thread-safe (part of one shard).
class LshIndex {
 public:
  static constexpr int kIdBits = 28;
  // Entries the index can hold at once (268 M: ~70 GB at 25 bands); id 0
  // is never given, so that a word of 0 is empty.
  static constexpr size_t kMaxEntries = (size_t{1} << kIdBits) - 1;

  // `bands` band keys per entry; generations `width` of event time wide.
  LshIndex(int bands, Duration width);

  // Sizes the tables for `expected` entries about to be staged (the rebuild
  // at open): at the first Flush(), by the share of the bands the entries
  // staged by then are in, and not at all when none of them was indexed (a
  // shard whose entries have no sketch).
  void Reserve(size_t expected);
  // Indexes the entry `simhash` under its band keys, keys[i] in band i, in
  // the generation of `indexed_at`: in the bands of `rows` (a routed near
  // owner's share), and not at all when it holds none. Ignored when that
  // generation has been dropped. False, and nothing indexed, when
  // kMaxEntries are indexed.
  bool Add(uint64_t simhash, std::span<const uint64_t> keys, EventTime indexed_at,
           const NearRows& rows = NearRows::All());
  // Add() for many entries at once (the rebuild at open): the words wait in
  // a buffer and reach the tables, sorted by where they go, every
  // kStagedEntries entries and at Flush(). Lookups do not see them until
  // then. About a fifth of the cost of Add(), whose words each miss the cache.
  bool Stage(uint64_t simhash, std::span<const uint64_t> keys, EventTime indexed_at,
             const NearRows& rows = NearRows::All());
  void Flush();
  // Drops the generations that end before `oldest`.
  void DropBefore(EventTime oldest);
  // Appends the SimHash of every entry whose key in some band has the tag
  // of keys[i] in band i: every entry sharing a band key, once per band and
  // generation that holds it, and very rarely one that only shares a tag.
  void Collect(std::span<const uint64_t> keys, std::vector<uint64_t>* out) const;

  int bands() const { return bands_; }
  // Entries indexed, over all generations.
  size_t size() const { return size_; }
  // Their words: one per band each is in.
  size_t rows() const { return words_; }
  // Generations holding entries.
  size_t generations() const { return ring_.generations(); }
  // Heap bytes held: the tables and the entry table.
  size_t MemoryBytes() const;

 private:
  // One band's words: `homes` * kWordsPerHome places words can be homed in,
  // then a tail the last runs may spill into.
  using Table = WordArray;
  static constexpr size_t kWordsPerHome = 8;  // a cache line
  static constexpr size_t kTailWords = 64;    // spare beyond the last run
  static constexpr uint64_t kIdMask = (uint64_t{1} << kIdBits) - 1;
  static constexpr double kMaxLoad = 0.85;
  static constexpr double kRebuildLoad = 0.68;  // after growing or shrinking
  static constexpr uint8_t kFreeId = 0xff;      // slots_of_ of an id not in use
  // The home lines of one entry's bands lie far apart in memory: visited one
  // after the other, each waits for its own cache miss. Add and Collect ask
  // for this many at once first, so that the misses overlap. (Inline: GCC
  // drops calls of a function that only prefetches, as having no effect.)
  static constexpr int kPrefetchBands = 16;

  static constexpr size_t kStagedEntries = 1 << 16;

  static uint64_t Tag(uint64_t key) { return key & ~kIdMask; }
  // The first place of a tag's home: its top 32 bits scaled to the homes.
  size_t Start(uint64_t tag) const {
    return static_cast<size_t>(((tag >> 32) * homes_) >> 32) * kWordsPerHome;
  }
  // Homes for `words` words in a band.
  static size_t HomesFor(size_t words);
  // The words of the average band: the tables' size is the same in every
  // band, and a routed owner's bands each hold a share of its entries.
  size_t WordsPerBand() const { return (words_ + static_cast<size_t>(bands_) - 1) / bands_; }
  // Puts `word` after the smaller tags from its home on, shifting the rest
  // of the run; false when the run would leave the table.
  bool Insert(Table& table, uint64_t word) const;
  // Rebuilds every table with `homes` homes, leaving out the words of the
  // ids marked in `dropped` (empty: none).
  void Rebuild(size_t homes, const std::vector<bool>& dropped);
  Table Rebuilt(const Table& old, const std::vector<bool>& dropped) const;
  // Removes the words and frees the ids of the slots in `mask` (bit s: slot s).
  void Sweep(uint32_t mask);
  std::vector<bool> FreeIds(uint32_t mask);
  uint32_t NewId(uint64_t simhash, int slot);
  // The id of a new entry, after the sweep or growth it calls for; 0 when its
  // generation is dropped (nothing to index) or the index is full (*full).
  uint64_t Admit(uint64_t simhash, EventTime indexed_at, size_t words, bool* full);
  // Sizes the tables for Reserve()'s entries, if it is pending.
  void ApplyReservation();
  // Inserts the staged words of one band, sorted by their first places.
  void FlushBand(int band, std::vector<uint64_t>& words);

  const int bands_;
  GenerationRing ring_;
  size_t homes_;               // per band, the same in every band
  std::vector<Table> tables_;  // one per band
  // The entry table: id -> SimHash and its generation's slot (kFreeId: the
  // id is free, and listed in free_ids_; id 0 is never used).
  std::vector<uint64_t> simhashes_;
  std::vector<uint8_t> slots_of_;
  std::vector<uint32_t> free_ids_;
  size_t size_ = 0;
  size_t words_ = 0;
  // The words of each generation slot, to take off words_ when it goes.
  std::vector<size_t> words_of_slot_ = std::vector<size_t>(GenerationRing::kSlots);
  std::vector<std::vector<uint64_t>> staged_;  // per band, until Flush()
  size_t staged_entries_ = 0;
  size_t reserved_entries_ = 0;  // Reserve()'s, until the first Flush() sizes the tables
  size_t staged_calls_ = 0;      // Stage() calls since Reserve(), indexed or not
  std::vector<uint64_t> sorted_;               // FlushBand's scratch
};

}  // namespace pagesieve::store
