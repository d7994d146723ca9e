#include "store/simhash_index.h"

#include <algorithm>
#include <bit>

namespace pagesieve::store {

SimHashIndex::SimHashIndex(const NearLayout* layout, Duration width)
    : layout_(layout),
      max_bits_(std::clamp(layout->min_prefix_bits(), kSlotBits, kMaxBucketBits)),
      ring_(width),
      buckets_(static_cast<size_t>(layout->tables()) << kSlotBits) {}

int SimHashIndex::BitsFor(size_t n) const {
  int bits = kSlotBits;
  while (bits < max_bits_ && n >= kTargetPerBucket << bits) ++bits;
  return bits;
}

void SimHashIndex::Reserve(size_t expected) {
  const int bits = BitsFor(expected);
  if (bits > bits_) Resize(bits);
}

void SimHashIndex::Add(uint64_t simhash, EventTime indexed_at, const NearRows& rows) {
  int held = 0;
  for (int t = 0; t < layout_->tables(); ++t) held += rows.HasTable(t);
  if (held == 0) return;
  const GenerationRing::Claim claim = ring_.SlotFor(indexed_at);
  if (claim.slot < 0) return;
  if (claim.evict != 0) Sweep(claim.evict);
  const int s = claim.slot;
  // Sized by the rows of the average table: a routed owner's tables each
  // hold a share of its entries.
  if (bits_ < max_bits_ && rows_ / static_cast<size_t>(layout_->tables()) >= kTargetPerBucket
                                                                                << bits_) {
    Resize(bits_ + 1);
  }
  for (int t = 0; t < layout_->tables(); ++t) {
    if (!rows.HasTable(t)) continue;
    const uint64_t permuted = layout_->Permute(t, simhash);
    Bucket& b = buckets_[BucketIndex(t, permuted)];
    // Grow by a quarter, not double: buckets then leave about 10 % of their
    // capacity unused instead of 28 %, for three more copies per SimHash.
    if (b.size() == b.capacity()) b.reserve(b.size() + b.size() / 4 + 4);
    b.push_back(Tagged(permuted, s));
  }
  ring_.Count(s);
  ++size_;
  rows_ += static_cast<size_t>(held);
  rows_of_slot_[static_cast<size_t>(s)] += static_cast<size_t>(held);
}

// Moves every SimHash to its bucket under `bits`: bucket b splits into 2b
// and 2b + 1 by the next bit (growing), or 2b and 2b + 1 merge (shrinking).
void SimHashIndex::Resize(int bits) {
  const size_t tables = static_cast<size_t>(layout_->tables());
  // The new bucket of a stored value, from its real top bits (which its
  // slot tag hides; the old bucket index gives them back).
  auto destination = [&](size_t old, uint64_t v) {
    const uint64_t top = (static_cast<uint64_t>(old) << (64 - bits_)) & ~kBelowSlot;
    return ((old >> bits_) << bits) | (((v & kBelowSlot) | top) >> (64 - bits));
  };
  // Two passes, so every new bucket is allocated once at its exact size.
  std::vector<uint32_t> counts(tables << bits);
  for (size_t old = 0; old < buckets_.size(); ++old) {
    for (uint64_t v : buckets_[old]) ++counts[destination(old, v)];
  }
  std::vector<Bucket> resized(tables << bits);
  for (size_t b = 0; b < resized.size(); ++b) resized[b].reserve(counts[b]);
  for (size_t old = 0; old < buckets_.size(); ++old) {
    for (uint64_t v : buckets_[old]) resized[destination(old, v)].push_back(v);
    Bucket().swap(buckets_[old]);  // free as we go: peak memory stays ~2x one table
  }
  buckets_ = std::move(resized);
  bits_ = bits;
}

void SimHashIndex::Sweep(uint32_t mask) {
  size_ -= ring_.Release(mask);
  for (size_t slot = 0; slot < rows_of_slot_.size(); ++slot) {
    if ((mask >> slot & 1) == 0) continue;
    rows_ -= rows_of_slot_[slot];
    rows_of_slot_[slot] = 0;
  }
  for (Bucket& b : buckets_) {
    std::erase_if(b, [mask](uint64_t v) { return (mask >> SlotOf(v) & 1) != 0; });
    if (b.empty()) {
      Bucket().swap(b);
    } else if (b.capacity() > 2 * b.size()) {
      b.shrink_to_fit();
    }
  }
  // Halve the buckets while they are under a quarter of their target.
  const size_t per_table = rows_ / static_cast<size_t>(layout_->tables());
  if (bits_ > kSlotBits && per_table < (kTargetPerBucket << bits_) / 4) Resize(BitsFor(per_table));
}

void SimHashIndex::DropBefore(EventTime oldest) {
  const uint32_t mask = ring_.DropBefore(oldest);
  if (mask != 0) Sweep(mask);
}

void SimHashIndex::Collect(uint64_t simhash, int max_distance, std::vector<Candidate>* out) const {
  for (int t = 0; t < layout_->tables(); ++t) {
    const uint64_t query = layout_->Permute(t, simhash);
    const uint64_t top = query & ~kBelowSlot;  // shared by the whole bucket
    for (uint64_t v : BucketOf(t, query)) {
      // Permuting moves bits around, so it keeps Hamming distances.
      const int d = std::popcount((v ^ query) & kBelowSlot);
      if (d <= max_distance) out->push_back({d, layout_->Unpermute(t, (v & kBelowSlot) | top)});
    }
  }
}

bool SimHashIndex::Contains(uint64_t simhash) const {
  const uint64_t query = layout_->Permute(0, simhash);
  return std::ranges::any_of(BucketOf(0, query),
                             [&](uint64_t v) { return ((v ^ query) & kBelowSlot) == 0; });
}

size_t SimHashIndex::size() const { return size_; }

size_t SimHashIndex::generations() const { return ring_.generations(); }

size_t SimHashIndex::MemoryBytes() const {
  size_t bytes = buckets_.capacity() * sizeof(Bucket);
  for (const Bucket& b : buckets_) {
    // The allocator's own header (glibc: 16 bytes) counts too.
    if (b.capacity() > 0) bytes += b.capacity() * sizeof(uint64_t) + 16;
  }
  return bytes;
}

}  // namespace pagesieve::store
