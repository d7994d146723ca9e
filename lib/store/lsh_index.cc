#include "store/lsh_index.h"

#include <algorithm>
#include <cassert>

namespace pagesieve::store {

LshIndex::LshIndex(int bands, Duration width)
    : bands_(bands), ring_(width), buckets_(static_cast<size_t>(bands) << kSlotBits) {}

int LshIndex::BitsFor(size_t n) const {
  int bits = kSlotBits;
  while (bits < kMaxBucketBits && n >= kTargetPerBucket << bits) ++bits;
  return bits;
}

void LshIndex::Reserve(size_t expected) {
  const int bits = BitsFor(expected);
  if (bits > bits_) Resize(bits);
  simhashes_.reserve(expected);
  slots_of_.reserve(expected);
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

bool LshIndex::Add(uint64_t simhash, std::span<const uint64_t> keys, EventTime indexed_at) {
  assert(keys.size() == static_cast<size_t>(bands_));
  const GenerationRing::Claim claim = ring_.SlotFor(indexed_at);
  if (claim.slot < 0) return true;
  if (claim.evict != 0) Sweep(claim.evict);
  if (free_ids_.empty() && simhashes_.size() >= kMaxEntries) return false;
  if (bits_ < kMaxBucketBits && size_ >= kTargetPerBucket << bits_) Resize(bits_ + 1);
  const uint64_t id = NewId(simhash, claim.slot);
  const uint64_t slot = static_cast<uint64_t>(claim.slot) << (64 - kSlotBits);
  for (int i = 0; i < bands_; ++i) {
    Bucket& b = buckets_[BucketIndex(i, keys[i])];
    // Grow by a quarter, not double (as SimHashIndex): ~10 % spare, not 28 %.
    if (b.size() == b.capacity()) b.reserve(b.size() + b.size() / 4 + 4);
    b.push_back(slot | (keys[i] & kTagMask) | id);
  }
  ring_.Count(claim.slot);
  ++size_;
  return true;
}

// Moves every word to its bucket under `bits`, as SimHashIndex::Resize does:
// the real top bits of a key are the old bucket's, then the word's tag.
void LshIndex::Resize(int bits) {
  auto destination = [&](size_t old, uint64_t word) {
    const uint64_t top = (static_cast<uint64_t>(old) << (64 - bits_)) & ~kBelowSlot;
    return ((old >> bits_) << bits) | (((word & kTagMask) | top) >> (64 - bits));
  };
  // Two passes, so every new bucket is allocated once at its exact size.
  std::vector<uint32_t> counts(static_cast<size_t>(bands_) << bits);
  for (size_t old = 0; old < buckets_.size(); ++old) {
    for (uint64_t w : buckets_[old]) ++counts[destination(old, w)];
  }
  std::vector<Bucket> resized(counts.size());
  for (size_t b = 0; b < resized.size(); ++b) resized[b].reserve(counts[b]);
  for (size_t old = 0; old < buckets_.size(); ++old) {
    for (uint64_t w : buckets_[old]) resized[destination(old, w)].push_back(w);
    Bucket().swap(buckets_[old]);  // free as we go: peak memory stays ~2x one band
  }
  buckets_ = std::move(resized);
  bits_ = bits;
}

void LshIndex::Sweep(uint32_t mask) {
  size_ -= ring_.Release(mask);
  for (Bucket& b : buckets_) {
    std::erase_if(b, [mask](uint64_t w) { return (mask >> SlotOf(w) & 1) != 0; });
    if (b.empty()) {
      Bucket().swap(b);
    } else if (b.capacity() > 2 * b.size()) {
      b.shrink_to_fit();
    }
  }
  FreeIds(mask);
  if (bits_ > kSlotBits && size_ < (kTargetPerBucket << bits_) / 4) Resize(BitsFor(size_));
}

// No word refers to the swept ids any more: they can be handed out again.
// The free list is rebuilt whole, and free ids at the end of the table are
// given back to it instead.
void LshIndex::FreeIds(uint32_t mask) {
  for (uint8_t& s : slots_of_) {
    if (s != kFreeId && (mask >> s & 1) != 0) s = kFreeId;
  }
  size_t used = slots_of_.size();
  while (used > 0 && slots_of_[used - 1] == kFreeId) --used;
  simhashes_.resize(used);
  slots_of_.resize(used);
  // Highest first: NewId takes from the back, and handing out the lowest
  // ids first leaves the table's end free to trim.
  free_ids_.clear();
  for (size_t id = used; id-- > 0;) {
    if (slots_of_[id] == kFreeId) free_ids_.push_back(static_cast<uint32_t>(id));
  }
  if (simhashes_.capacity() > 2 * used) {
    simhashes_.shrink_to_fit();
    slots_of_.shrink_to_fit();
  }
  free_ids_.shrink_to_fit();
}

void LshIndex::DropBefore(EventTime oldest) {
  const uint32_t mask = ring_.DropBefore(oldest);
  if (mask != 0) Sweep(mask);
}

void LshIndex::Collect(std::span<const uint64_t> keys, std::vector<uint64_t>* out) const {
  assert(keys.size() == static_cast<size_t>(bands_));
  for (int i = 0; i < bands_; ++i) {
    const uint64_t tag = keys[i] & kTagMask;
    for (uint64_t w : buckets_[BucketIndex(i, keys[i])]) {
      if ((w & kTagMask) == tag) out->push_back(simhashes_[w & kIdMask]);
    }
  }
}

size_t LshIndex::MemoryBytes() const {
  size_t bytes = buckets_.capacity() * sizeof(Bucket);
  for (const Bucket& b : buckets_) {
    // The allocator's own header (glibc: 16 bytes) counts too.
    if (b.capacity() > 0) bytes += b.capacity() * sizeof(uint64_t) + 16;
  }
  return bytes + simhashes_.capacity() * sizeof(uint64_t) + slots_of_.capacity() +
         free_ids_.capacity() * sizeof(uint32_t);
}

}  // namespace pagesieve::store
