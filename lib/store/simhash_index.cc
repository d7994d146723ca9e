#include "store/simhash_index.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace pagesieve::store {
namespace {

// Floor division: event times before the epoch get negative generations.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

}  // namespace

SimHashIndex::SimHashIndex(const NearLayout* layout, Duration width)
    : layout_(layout),
      width_ms_(std::max<int64_t>(1, width.count())),
      max_bits_(std::clamp(layout->min_prefix_bits(), kSlotBits, kMaxBucketBits)),
      first_id_(std::numeric_limits<int64_t>::min()),
      buckets_(static_cast<size_t>(layout->tables()) << kSlotBits) {}

int64_t SimHashIndex::GenerationOf(EventTime t) const { return FloorDiv(ToMillis(t), width_ms_); }

int SimHashIndex::BitsFor(size_t n) const {
  int bits = kSlotBits;
  while (bits < max_bits_ && n >= kTargetPerBucket << bits) ++bits;
  return bits;
}

void SimHashIndex::Reserve(size_t expected) {
  const int bits = BitsFor(expected);
  if (bits > bits_) Resize(bits);
}

int SimHashIndex::SlotFor(int64_t id) {
  if (id < first_id_) return -1;
  const int s = static_cast<int>(id - FloorDiv(id, kSlots) * kSlots);
  Slot& slot = slots_[s];
  if (slot.size == 0 || slot.id == id) {
    slot.id = id;
    return s;
  }
  // Two generations kSlots or more apart: the older cannot be live.
  if (slot.id > id) return -1;
  Sweep(uint32_t{1} << s);
  slot.id = id;
  return s;
}

void SimHashIndex::Add(uint64_t simhash, EventTime indexed_at) {
  const int s = SlotFor(GenerationOf(indexed_at));
  if (s < 0) return;
  if (bits_ < max_bits_ && size_ >= kTargetPerBucket << bits_) Resize(bits_ + 1);
  for (int t = 0; t < layout_->tables(); ++t) {
    const uint64_t permuted = layout_->Permute(t, simhash);
    Bucket& b = buckets_[BucketIndex(t, permuted)];
    // Grow by a quarter, not double: buckets then leave about 10 % of their
    // capacity unused instead of 28 %, for three more copies per SimHash.
    if (b.size() == b.capacity()) b.reserve(b.size() + b.size() / 4 + 4);
    b.push_back(Tagged(permuted, s));
  }
  ++slots_[s].size;
  ++size_;
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
  for (int s = 0; s < kSlots; ++s) {
    if ((mask >> s & 1) == 0) continue;
    size_ -= slots_[s].size;
    slots_[s].size = 0;
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
  if (bits_ > kSlotBits && size_ < (kTargetPerBucket << bits_) / 4) Resize(BitsFor(size_));
}

void SimHashIndex::DropBefore(EventTime oldest) {
  // Generation id holds times below (id + 1) * width: drop it when that is <= oldest.
  const int64_t keep_from = FloorDiv(ToMillis(oldest), width_ms_);
  if (keep_from <= first_id_) return;
  first_id_ = keep_from;
  uint32_t mask = 0;
  for (int s = 0; s < kSlots; ++s) {
    if (slots_[s].size > 0 && slots_[s].id < keep_from) mask |= uint32_t{1} << s;
  }
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

size_t SimHashIndex::generations() const {
  return static_cast<size_t>(
      std::ranges::count_if(slots_, [](const Slot& s) { return s.size > 0; }));
}

size_t SimHashIndex::MemoryBytes() const {
  size_t bytes = buckets_.capacity() * sizeof(Bucket);
  for (const Bucket& b : buckets_) {
    // The allocator's own header (glibc: 16 bytes) counts too.
    if (b.capacity() > 0) bytes += b.capacity() * sizeof(uint64_t) + 16;
  }
  return bytes;
}

}  // namespace pagesieve::store
