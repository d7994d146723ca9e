#include "store/lsh_index.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

namespace pagesieve::store {

LshIndex::LshIndex(int bands, Duration width)
    : bands_(bands),
      ring_(width),
      homes_(HomesFor(0)),
      simhashes_(1),  // id 0
      slots_of_(1, kFreeId) {
  for (int i = 0; i < bands; ++i) tables_.emplace_back(homes_ * kWordsPerHome + kTailWords);
}

size_t LshIndex::HomesFor(size_t words) {
  const double places = static_cast<double>(words) / kRebuildLoad;
  return std::max<size_t>(4, static_cast<size_t>(std::ceil(places / kWordsPerHome)));
}

void LshIndex::Reserve(size_t expected) {
  // The tables are sized at the first Flush(), when the staged entries show
  // what share of the bands they are in: a routed owner's entries are each
  // in a few, and tables sized as if each were in all would hold the
  // memory its share saves.
  reserved_entries_ = expected;
  staged_calls_ = 0;
  // As if every entry were indexed; ApplyReservation() gives back what the
  // staged entries show is not needed.
  simhashes_.reserve(expected + 1);
  slots_of_.reserve(expected + 1);
}

uint32_t LshIndex::NewId(uint64_t simhash, int slot) {
  if (!free_ids_.empty()) {
    const uint32_t id = free_ids_.back();
    free_ids_.pop_back();
    simhashes_[id] = simhash;
    slots_of_[id] = static_cast<uint8_t>(slot);
    return id;
  }
  simhashes_.push_back(simhash);
  slots_of_.push_back(static_cast<uint8_t>(slot));
  return static_cast<uint32_t>(simhashes_.size() - 1);
}

bool LshIndex::Insert(Table& table, uint64_t word) const {
  uint64_t* w = table.data();
  const uint64_t tag = Tag(word);
  size_t p = Start(tag);
  while (p < table.size() && w[p] != 0 && Tag(w[p]) <= tag) ++p;
  size_t empty = p;
  while (empty < table.size() && w[empty] != 0) ++empty;
  if (empty == table.size()) return false;
  std::memmove(w + p + 1, w + p, (empty - p) * sizeof(uint64_t));
  w[p] = word;
  return true;
}

uint64_t LshIndex::Admit(uint64_t simhash, EventTime indexed_at, size_t words, bool* full) {
  *full = false;
  const GenerationRing::Claim claim = ring_.SlotFor(indexed_at);
  if (claim.slot < 0) return 0;
  if (claim.evict != 0) Sweep(claim.evict);
  if (free_ids_.empty() && simhashes_.size() > kMaxEntries) {
    *full = true;
    return 0;
  }
  const double places = static_cast<double>(homes_ * kWordsPerHome);
  words_ += words;
  words_of_slot_[static_cast<size_t>(claim.slot)] += words;
  // While a reservation waits for the first Flush(), that sizes the tables.
  if (reserved_entries_ == 0 && static_cast<double>(WordsPerBand()) > kMaxLoad * places) {
    Rebuild(HomesFor(WordsPerBand()), {});
  }
  ring_.Count(claim.slot);
  ++size_;
  return NewId(simhash, claim.slot);
}

namespace {

size_t BandsHeld(const NearRows& rows, int bands) {
  if (rows.all()) return static_cast<size_t>(bands);
  size_t held = 0;
  for (int i = 0; i < bands; ++i) held += rows.HasBand(i);
  return held;
}

}  // namespace

bool LshIndex::Add(uint64_t simhash, std::span<const uint64_t> keys, EventTime indexed_at,
                   const NearRows& rows) {
  assert(keys.size() == static_cast<size_t>(bands_));
  const size_t words = BandsHeld(rows, bands_);
  if (words == 0) return true;
  Flush();
  bool full = false;
  const uint64_t id = Admit(simhash, indexed_at, words, &full);
  if (id == 0) return !full;
  for (int from = 0; from < bands_; from += kPrefetchBands) {
    const int to = std::min(bands_, from + kPrefetchBands);
    for (int i = from; i < to; ++i) {
      if (rows.HasBand(i)) __builtin_prefetch(tables_[i].data() + Start(Tag(keys[i])), 1);
    }
    for (int i = from; i < to; ++i) {
      if (!rows.HasBand(i)) continue;
      // A run reaching the end of the table: a rebuild gives it room.
      while (!Insert(tables_[i], Tag(keys[i]) | id)) Rebuild(homes_, {});
    }
  }
  return true;
}

bool LshIndex::Stage(uint64_t simhash, std::span<const uint64_t> keys, EventTime indexed_at,
                     const NearRows& rows) {
  assert(keys.size() == static_cast<size_t>(bands_));
  ++staged_calls_;
  const size_t words = BandsHeld(rows, bands_);
  if (words == 0) return true;
  bool full = false;
  const uint64_t id = Admit(simhash, indexed_at, words, &full);
  if (id == 0) return !full;
  staged_.resize(static_cast<size_t>(bands_));
  for (int i = 0; i < bands_; ++i) {
    if (rows.HasBand(i)) staged_[i].push_back(Tag(keys[i]) | id);
  }
  if (++staged_entries_ >= kStagedEntries) Flush();
  return true;
}

void LshIndex::Flush() {
  // Moved out first: an insert that rebuilds the tables flushes too.
  std::vector<std::vector<uint64_t>> staged = std::move(staged_);
  staged_.clear();
  staged_entries_ = 0;
  ApplyReservation();
  for (size_t i = 0; i < staged.size(); ++i) FlushBand(static_cast<int>(i), staged[i]);
}

void LshIndex::ApplyReservation() {
  if (reserved_entries_ == 0) return;
  if (size_ == 0) {
    // Nothing staged was indexed (no entry of the shard has a sketch of
    // these bands): the tables stay small. They grow as entries come.
    reserved_entries_ = 0;
    simhashes_.shrink_to_fit();
    slots_of_.shrink_to_fit();
    return;
  }
  // The share of the staged entries indexed, and of the bands they are in.
  const double indexed = std::min(
      1.0, static_cast<double>(size_) / static_cast<double>(std::max<size_t>(staged_calls_, 1)));
  const size_t entries = static_cast<size_t>(static_cast<double>(reserved_entries_) * indexed);
  if (simhashes_.capacity() > 2 * std::max(entries + 1, simhashes_.size())) {
    simhashes_.shrink_to_fit();
    slots_of_.shrink_to_fit();
    simhashes_.reserve(entries + 1);
    slots_of_.reserve(entries + 1);
  }
  const double share = static_cast<double>(words_) /
                       (static_cast<double>(size_) * static_cast<double>(bands_));
  // At least room for what was admitted meanwhile, should `expected` have
  // been short (Admit does not grow the tables while the reservation waits).
  const size_t homes =
      std::max(HomesFor(static_cast<size_t>(static_cast<double>(entries) * share)),
               HomesFor(WordsPerBand()));
  reserved_entries_ = 0;  // first: the rebuild flushes
  if (homes > homes_) Rebuild(homes, {});
}

// A counting sort on the top 12 bits of the tags puts the words in the order
// of where they go, so the inserts sweep the table once instead of jumping
// about it, and the line of each can be asked for well before it is needed.
void LshIndex::FlushBand(int band, std::vector<uint64_t>& words) {
  constexpr int kBits = 12;
  std::vector<uint32_t> starts((size_t{1} << kBits) + 1);
  for (uint64_t w : words) ++starts[(w >> (64 - kBits)) + 1];
  for (size_t b = 1; b < starts.size(); ++b) starts[b] += starts[b - 1];
  sorted_.resize(words.size());
  for (uint64_t w : words) sorted_[starts[w >> (64 - kBits)]++] = w;
  // In that order consecutive words still land lines apart in a large
  // table: ask for the line of a word some way ahead of the one inserted.
  constexpr size_t kAhead = 16;
  Table& table = tables_[band];
  for (size_t j = 0; j < sorted_.size(); ++j) {
    if (j + kAhead < sorted_.size()) {
      __builtin_prefetch(table.data() + Start(Tag(sorted_[j + kAhead])), 1);
    }
    while (!Insert(tables_[band], sorted_[j])) Rebuild(homes_, {});
  }
  sorted_.clear();
}

// The old words are in tag order, so they go to the new table in one pass:
// each at its home, or right after the word before it.
LshIndex::Table LshIndex::Rebuilt(const Table& old, const std::vector<bool>& dropped) const {
  auto kept = [&](uint64_t w) { return w != 0 && (dropped.empty() || !dropped[w & kIdMask]); };
  size_t end = 0;  // first pass: how far the last run reaches
  for (size_t p = 0; p < old.size(); ++p) {
    if (kept(old[p])) end = std::max(end, Start(Tag(old[p]))) + 1;
  }
  Table t(std::max(end, homes_ * kWordsPerHome) + kTailWords);
  size_t next = 0;
  for (size_t p = 0; p < old.size(); ++p) {
    const uint64_t w = old[p];
    if (!kept(w)) continue;
    next = std::max(next, Start(Tag(w)));
    t[next++] = w;
  }
  return t;
}

// One band at a time: peak memory is the old tables and one new one.
void LshIndex::Rebuild(size_t homes, const std::vector<bool>& dropped) {
  Flush();
  homes_ = homes;
  for (Table& table : tables_) table = Rebuilt(table, dropped);
}

void LshIndex::Sweep(uint32_t mask) {
  Flush();  // before ids are freed: staged words of dropped ids must go too
  size_ -= ring_.Release(mask);
  for (size_t slot = 0; slot < words_of_slot_.size(); ++slot) {
    if ((mask >> slot & 1) == 0) continue;
    words_ -= words_of_slot_[slot];
    words_of_slot_[slot] = 0;
  }
  const std::vector<bool> dropped = FreeIds(mask);
  const double places = static_cast<double>(homes_ * kWordsPerHome);
  const bool shrink = static_cast<double>(WordsPerBand()) < kMaxLoad / 2 * places;
  Rebuild(shrink ? HomesFor(WordsPerBand()) : homes_, dropped);
}

// Marks the ids of the slots in `mask` free (returned as a bitmap for the
// rebuild to leave their words out), rebuilds the free list, and gives the
// free ids at the end of the table back.
std::vector<bool> LshIndex::FreeIds(uint32_t mask) {
  std::vector<bool> dropped(slots_of_.size());
  for (size_t id = 1; id < slots_of_.size(); ++id) {
    const uint8_t s = slots_of_[id];
    if (s != kFreeId && (mask >> s & 1) != 0) {
      slots_of_[id] = kFreeId;
      dropped[id] = true;
    }
  }
  size_t used = slots_of_.size();
  while (used > 1 && slots_of_[used - 1] == kFreeId) --used;
  simhashes_.resize(used);
  slots_of_.resize(used);
  // Highest first: NewId takes from the back, and handing out the lowest
  // ids first leaves the table's end free to trim.
  free_ids_.clear();
  for (size_t id = used; id-- > 1;) {
    if (slots_of_[id] == kFreeId) free_ids_.push_back(static_cast<uint32_t>(id));
  }
  if (simhashes_.capacity() > 2 * used) {
    simhashes_.shrink_to_fit();
    slots_of_.shrink_to_fit();
  }
  free_ids_.shrink_to_fit();
  return dropped;
}

void LshIndex::DropBefore(EventTime oldest) {
  const uint32_t mask = ring_.DropBefore(oldest);
  if (mask != 0) Sweep(mask);
}

void LshIndex::Collect(std::span<const uint64_t> keys, std::vector<uint64_t>* out) const {
  assert(keys.size() == static_cast<size_t>(bands_));
  for (int from = 0; from < bands_; from += kPrefetchBands) {
    const int to = std::min(bands_, from + kPrefetchBands);
    for (int i = from; i < to; ++i) {
      __builtin_prefetch(tables_[i].data() + Start(Tag(keys[i])));
    }
    for (int i = from; i < to; ++i) {
      const uint64_t tag = Tag(keys[i]);
      const Table& t = tables_[i];
      // Sorted by tag: skip the smaller ones spilled here from earlier homes.
      for (size_t p = Start(tag); p < t.size() && t[p] != 0; ++p) {
        const uint64_t found = Tag(t[p]);
        if (found > tag) break;
        if (found == tag) out->push_back(simhashes_[t[p] & kIdMask]);
      }
    }
  }
}

size_t LshIndex::MemoryBytes() const {
  size_t bytes = tables_.capacity() * sizeof(Table);
  for (const Table& t : tables_) bytes += t.bytes();
  return bytes + simhashes_.capacity() * sizeof(uint64_t) + slots_of_.capacity() +
         free_ids_.capacity() * sizeof(uint32_t);
}

}  // namespace pagesieve::store
