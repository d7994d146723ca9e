#include "store/cuckoo/time_decayed_cuckoo.h"

#include <algorithm>
#include <bit>
#include <new>

#include "store/bloom/generations.h"

namespace pagesieve::store {

using cuckoo::kSlotsPerBucket;
using cuckoo::kTagBits;
using cuckoo::kTagValues;
using cuckoo::StashEntry;

namespace {

__extension__ using Uint128 = unsigned __int128;  // GCC's, for the high half of a product

uint64_t MulHi(uint64_t a, uint64_t b) { return static_cast<uint64_t>((Uint128{a} * b) >> 64); }

uint32_t TagOf(int64_t generation) {
  return static_cast<uint32_t>(bloom::SlotOf(generation, kTagValues));
}

bool StashBefore(const StashEntry& a, const StashEntry& b) {
  return a.bucket != b.bucket ? a.bucket < b.bucket : a.value < b.value;
}

}  // namespace

TimeDecayedCuckoo::TimeDecayedCuckoo(PrivateTag, const BloomOptions& options,
                                     const cuckoo::CuckooGeometry& geometry, bloom::BitArena bytes)
    : options_(options),
      geometry_(geometry),
      param_tag_(cuckoo::CuckooParameterTag(options, geometry)),
      page_shift_(std::countr_zero(geometry.buckets_per_page)),
      bytes_(std::move(bytes)),
      slots_(bytes_.data(), geometry.slot_bits()),
      dirty_((geometry.pages() + 63) / 64, 0) {
  UpdateLiveTags();
}

StatusOr<std::unique_ptr<TimeDecayedCuckoo>> TimeDecayedCuckoo::Make(
    const BloomOptions& options, const cuckoo::CuckooGeometry& geometry) {
  // 8 bytes of padding: a slot is read with one unaligned 8-byte load.
  PS_ASSIGN_OR_RETURN(bloom::BitArena bytes, bloom::BitArena::Allocate(geometry.table_bytes() + 8));
  try {
    return std::make_unique<TimeDecayedCuckoo>(PrivateTag{}, options, geometry, std::move(bytes));
  } catch (const std::bad_alloc&) {
    return Status::ResourceExhausted("cuckoo: out of memory for the dirty-page map");
  }
}

StatusOr<std::unique_ptr<TimeDecayedCuckoo>> TimeDecayedCuckoo::Create(
    const BloomOptions& options) {
  PS_ASSIGN_OR_RETURN(cuckoo::CuckooGeometry geometry, cuckoo::ComputeCuckooGeometry(options));
  return Make(options, geometry);
}

StatusOr<std::unique_ptr<TimeDecayedCuckoo>> TimeDecayedCuckoo::Restore(std::string_view header) {
  PS_ASSIGN_OR_RETURN(cuckoo::CuckooHeader h, cuckoo::DecodeCuckooHeader(header));
  PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedCuckoo> filter, Make(h.options, h.geometry));
  filter->watermark_ms_ = h.watermark_ms;
  filter->UpdateLiveTags();
  // Stash entries are read against the header's newest generation, which
  // is the restored one: drop the expired, keep the rest in order.
  for (const StashEntry& e : h.stash) {
    if (filter->Live(e.value)) filter->stash_.push_back(e);
  }
  std::sort(filter->stash_.begin(), filter->stash_.end(), StashBefore);
  return filter;
}

// The high bits choose the bucket (all 64 through a 128-bit product, so any
// bucket count works), the low 32 the fingerprint: the key hashes are
// already uniform and are not hashed again.
uint64_t TimeDecayedCuckoo::BucketOf(uint64_t key_hash) const {
  return MulHi(key_hash, geometry_.buckets);
}

// In [1, 2^f - 1]: 0 marks an empty slot.
uint32_t TimeDecayedCuckoo::FingerprintOf(uint64_t key_hash) const {
  const uint64_t range = (uint64_t{1} << geometry_.fingerprint_bits) - 1;
  return static_cast<uint32_t>(((key_hash & 0xFFFFFFFFu) * range) >> 32) + 1;
}

// (h(fp) - bucket) mod buckets: an involution, so either bucket of a key
// finds the other from the fingerprint alone, for any bucket count.
uint64_t TimeDecayedCuckoo::AltBucket(uint64_t bucket, uint32_t fingerprint) const {
  const uint64_t h = MulHi(uint64_t{fingerprint} * 0x9E3779B97F4A7C15ull, geometry_.buckets);
  return h >= bucket ? h - bucket : h + geometry_.buckets - bucket;
}

int64_t TimeDecayedCuckoo::GenerationOfTag(uint32_t tag, int64_t newest) const {
  return newest - bloom::SlotOf(newest - static_cast<int64_t>(tag), kTagValues);
}

void TimeDecayedCuckoo::UpdateLiveTags() {
  newest_ = bloom::GenerationOf(watermark_ms_, geometry_.generation_width);
  oldest_ = bloom::OldestLiveGeneration(watermark_ms_, options_.ttl, geometry_.generation_width);
  live_tags_ = 0;
  for (int64_t g = std::max(oldest_, newest_ - (kTagValues - 1)); g <= newest_; ++g) {
    live_tags_ |= static_cast<uint8_t>(1u << TagOf(g));
  }
}

bool TimeDecayedCuckoo::BucketHas(uint64_t bucket, uint32_t fingerprint) const {
  const uint64_t first = bucket * kSlotsPerBucket;
  for (int i = 0; i < kSlotsPerBucket; ++i) {
    const uint32_t v = slots_.Get(first + i);
    if ((v >> kTagBits) == fingerprint && Live(v)) return true;
  }
  return false;
}

bool TimeDecayedCuckoo::StashHas(uint64_t bucket, uint32_t fingerprint) const {
  auto it = std::lower_bound(stash_.begin(), stash_.end(), StashEntry{bucket, 0}, StashBefore);
  for (; it != stash_.end() && it->bucket == bucket; ++it) {
    if ((it->value >> kTagBits) == fingerprint && Live(it->value)) return true;
  }
  return false;
}

bool TimeDecayedCuckoo::MayContain(uint64_t key_hash) const {
  const uint32_t fp = FingerprintOf(key_hash);
  const uint64_t b1 = BucketOf(key_hash);
  const uint64_t b2 = AltBucket(b1, fp);
  if (BucketHas(b1, fp) || BucketHas(b2, fp)) return true;
  return !stash_.empty() && (StashHas(b1, fp) || StashHas(b2, fp));
}

void TimeDecayedCuckoo::Insert(uint64_t key_hash, EventTime t) {
  const int64_t ms = ToMillis(t);
  if (ms > watermark_ms_) AdvanceWatermark(t);
  if (ms < watermark_ms_ - options_.ttl.count()) {
    ++late_inserts_;
    return;
  }
  const int64_t generation = bloom::GenerationOf(ms, geometry_.generation_width);
  const uint32_t fp = FingerprintOf(key_hash);
  const uint64_t b1 = BucketOf(key_hash);
  const uint64_t b2 = AltBucket(b1, fp);
  if (Refresh(b1, fp, generation) || Refresh(b2, fp, generation)) return;
  const uint32_t value = (fp << kTagBits) | TagOf(generation);
  if (PlaceInFree(b1, value) || PlaceInFree(b2, value)) return;
  Displace((rng_ & 1) ? b1 : b2, value);
}

// A live entry with the key's fingerprint already answers for it: keep it,
// moving its generation up to the key's if that is later. (If it was another
// key's, that key now lives longer: a false positive, never a false
// negative, and the rate accounts for every live slot anyway.)
bool TimeDecayedCuckoo::Refresh(uint64_t bucket, uint32_t fingerprint, int64_t generation) {
  const uint64_t first = bucket * kSlotsPerBucket;
  for (int i = 0; i < kSlotsPerBucket; ++i) {
    const uint32_t v = slots_.Get(first + i);
    if ((v >> kTagBits) != fingerprint || !Live(v)) continue;
    if (GenerationOfTag(v & (kTagValues - 1), newest_) < generation) {
      WriteSlot(first + i, (fingerprint << kTagBits) | TagOf(generation));
    }
    return true;
  }
  return false;
}

// An empty slot, or one whose generation has expired, takes the value.
bool TimeDecayedCuckoo::PlaceInFree(uint64_t bucket, uint32_t value) {
  const uint64_t first = bucket * kSlotsPerBucket;
  for (int i = 0; i < kSlotsPerBucket; ++i) {
    const uint32_t v = slots_.Get(first + i);
    if (v == 0 || !Live(v)) {
      WriteSlot(first + i, value);
      return true;
    }
  }
  return false;
}

// The random walk of cuckoo hashing: take a random slot's place, carry its
// entry to that entry's other bucket, and so on. An entry still homeless
// after kMaxKicks goes to the stash rather than being dropped.
void TimeDecayedCuckoo::Displace(uint64_t bucket, uint32_t value) {
  for (int kick = 0; kick < kMaxKicks; ++kick) {
    rng_ ^= rng_ << 13;
    rng_ ^= rng_ >> 7;
    rng_ ^= rng_ << 17;
    const uint64_t slot = bucket * kSlotsPerBucket + (rng_ >> 62);
    const uint32_t evicted = slots_.Get(slot);
    WriteSlot(slot, value);
    value = evicted;
    bucket = AltBucket(bucket, value >> kTagBits);
    if (PlaceInFree(bucket, value)) return;
  }
  const StashEntry e{bucket, value};
  stash_.insert(std::upper_bound(stash_.begin(), stash_.end(), e, StashBefore), e);
}

void TimeDecayedCuckoo::WriteSlot(uint64_t slot, uint32_t value) {
  const uint32_t old = slots_.Get(slot);
  if (old != 0) --tag_counts_[old & (kTagValues - 1)];
  if (value != 0) ++tag_counts_[value & (kTagValues - 1)];
  slots_.Set(slot, value);
  MarkDirty((slot / kSlotsPerBucket) >> page_shift_);
}

void TimeDecayedCuckoo::MarkDirty(uint64_t page) {
  uint64_t& word = dirty_[page >> 6];
  const uint64_t bit = uint64_t{1} << (page & 63);
  if ((word & bit) == 0) {
    word |= bit;
    ++dirty_count_;
  }
}

void TimeDecayedCuckoo::ClearDirty() {
  std::fill(dirty_.begin(), dirty_.end(), 0);
  dirty_count_ = 0;
}

uint64_t TimeDecayedCuckoo::live_entries() const {
  uint64_t n = 0;
  for (uint32_t tag = 0; tag < kTagValues; ++tag) {
    if ((live_tags_ >> tag) & 1) n += tag_counts_[tag];
  }
  return n;
}

int TimeDecayedCuckoo::live_generations() const {
  int n = 0;
  for (uint32_t tag = 0; tag < kTagValues; ++tag) {
    if (((live_tags_ >> tag) & 1) && tag_counts_[tag] > 0) ++n;
  }
  return n;
}

size_t TimeDecayedCuckoo::MemoryBytes() const {
  return sizeof(*this) + bytes_.size() + dirty_.capacity() * sizeof(uint64_t) +
         stash_.capacity() * sizeof(StashEntry);
}

double TimeDecayedCuckoo::FillRatio() const {
  return static_cast<double>(live_entries()) / static_cast<double>(geometry_.slots());
}

double TimeDecayedCuckoo::EstimatedFalsePositiveRate() const {
  return cuckoo::CuckooFalsePositiveRate(geometry_, live_entries() + stash_.size());
}

}  // namespace pagesieve::store
