#include "store/bloom/time_decayed_bloom.h"

#include <bit>
#include <cassert>
#include <cstring>
#include <new>

#include "store/bloom/bloom_format.h"
#include "store/bloom/bloom_math.h"
#include "store/bloom/generations.h"
#include "store/bloom/probe.h"

namespace pagesieve::store {

using bloom::kNoGeneration;

TimeDecayedBloom::TimeDecayedBloom(PrivateTag, const BloomOptions& options,
                                   const bloom::BloomGeometry& geometry, bloom::BitArena bits)
    : options_(options),
      geometry_(geometry),
      tag_(bloom::BloomParameterTag(options, geometry)),
      page_block_shift_(std::countr_zero(geometry.blocks_per_page())),
      blocks_per_slot_(geometry.blocks_per_slot()),
      bits_(std::move(bits)),
      slots_(geometry.slots, Slot{kNoGeneration}),
      dirty_((geometry.page_count() + 63) / 64, 0) {}

StatusOr<std::unique_ptr<TimeDecayedBloom>> TimeDecayedBloom::Make(
    const BloomOptions& options, const bloom::BloomGeometry& geometry) {
  PS_ASSIGN_OR_RETURN(bloom::BitArena bits, bloom::BitArena::Allocate(geometry.bit_bytes()));
  try {
    return std::make_unique<TimeDecayedBloom>(PrivateTag{}, options, geometry, std::move(bits));
  } catch (const std::bad_alloc&) {
    return Status::ResourceExhausted("bloom: out of memory for the dirty-page map");
  }
}

StatusOr<std::unique_ptr<TimeDecayedBloom>> TimeDecayedBloom::Create(const BloomOptions& options) {
  PS_ASSIGN_OR_RETURN(bloom::BloomGeometry geometry, bloom::ComputeGeometry(options));
  return Make(options, geometry);
}

StatusOr<std::unique_ptr<TimeDecayedBloom>> TimeDecayedBloom::Restore(std::string_view header) {
  PS_ASSIGN_OR_RETURN(bloom::BloomHeader h, bloom::DecodeBloomHeader(header));
  PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedBloom> filter, Make(h.options, h.geometry));
  filter->watermark_ms_ = h.watermark_ms;
  for (size_t i = 0; i < h.slots.size(); ++i) {
    filter->slots_[i].generation = h.slots[i].generation;
    filter->slots_[i].inserts = h.slots[i].inserts;
  }
  filter->RebuildLiveSlots();
  return filter;
}

int64_t TimeDecayedBloom::OldestLiveGeneration() const {
  return bloom::OldestLiveGeneration(watermark_ms_, options_.ttl, geometry_.generation_width);
}

void TimeDecayedBloom::Insert(uint64_t key_hash, EventTime t) {
  const int64_t ms = ToMillis(t);
  if (ms > watermark_ms_) AdvanceWatermark(t);
  if (ms < watermark_ms_ - options_.ttl.count()) {
    ++late_inserts_;
    return;
  }
  const int64_t generation = bloom::GenerationOf(ms, geometry_.generation_width);
  const int s = bloom::SlotOf(generation, geometry_.slots);
  if (slots_[s].generation != generation) ClaimSlot(s, generation);
  const uint64_t block = bloom::BlockIndex(key_hash, blocks_per_slot_);
  const uint64_t page = PageOf(s, block);
  auto* words = reinterpret_cast<uint64_t*>(PageData(page) + OffsetInPage(block));
  slots_[s].set_bits +=
      bloom::BlockInsert(words, bloom::MakeProbeMask(key_hash, geometry_.num_probes));
  ++slots_[s].inserts;
  MarkDirty(page);
}

// All of a key's blocks share one offset within their group, so the mask is
// built once and the G + 1 loads are independent and close together.
bool TimeDecayedBloom::MayContain(uint64_t key_hash) const {
  const uint64_t block = bloom::BlockIndex(key_hash, blocks_per_slot_);
  const bloom::ProbeMask mask = bloom::MakeProbeMask(key_hash, geometry_.num_probes);
  const char* first = PageData(PageOf(0, block)) + OffsetInPage(block);
  for (int i = 0; i < live_count_; ++i) {
    const char* p = first + size_t{live_slots_[i]} * geometry_.page_bytes;
    if (bloom::BlockContains(reinterpret_cast<const uint64_t*>(p), mask)) return true;
  }
  return false;
}

void TimeDecayedBloom::AdvanceWatermark(EventTime watermark) {
  const int64_t ms = ToMillis(watermark);
  if (ms <= watermark_ms_) return;
  watermark_ms_ = ms;
  const int64_t oldest = OldestLiveGeneration();
  bool cleared = false;
  for (int s = 0; s < geometry_.slots; ++s) {
    if (slots_[s].generation != kNoGeneration && slots_[s].generation < oldest) {
      ClearSlot(s);
      cleared = true;
    }
  }
  if (cleared) RebuildLiveSlots();
}

// Live generations span at most `slots` consecutive numbers and expired ones
// are cleared as the watermark passes them, so the slot a live generation
// maps to is always free or already its own.
void TimeDecayedBloom::ClaimSlot(int slot, int64_t generation) {
  assert(slots_[slot].generation == kNoGeneration);
  if (slots_[slot].generation != kNoGeneration) ClearSlot(slot);
  slots_[slot].generation = generation;
  RebuildLiveSlots();
}

void TimeDecayedBloom::ClearSlot(int slot) {
  Slot& s = slots_[slot];
  for (uint64_t group = 0; group < geometry_.groups; ++group) {
    const uint64_t page = group * geometry_.slots + slot;
    if (s.set_bits != 0) std::memset(PageData(page), 0, geometry_.page_bytes);
    if (dirty_count_ != 0) MarkClean(page);
  }
  s = Slot{kNoGeneration};
}

void TimeDecayedBloom::RebuildLiveSlots() {
  live_count_ = 0;
  for (int s = 0; s < geometry_.slots; ++s) {
    if (slots_[s].generation != kNoGeneration) live_slots_[live_count_++] = static_cast<uint8_t>(s);
  }
}

void TimeDecayedBloom::MarkDirty(uint64_t page_id) {
  uint64_t& word = dirty_[page_id >> 6];
  const uint64_t bit = uint64_t{1} << (page_id & 63);
  dirty_count_ += (word & bit) == 0;
  word |= bit;
}

void TimeDecayedBloom::MarkClean(uint64_t page_id) {
  uint64_t& word = dirty_[page_id >> 6];
  const uint64_t bit = uint64_t{1} << (page_id & 63);
  dirty_count_ -= (word & bit) != 0;
  word &= ~bit;
}

size_t TimeDecayedBloom::MemoryBytes() const {
  return bits_.size() + dirty_.capacity() * sizeof(uint64_t) + slots_.capacity() * sizeof(Slot) +
         sizeof(*this);
}

double TimeDecayedBloom::FillRatio() const {
  if (live_count_ == 0) return 0.0;
  uint64_t set = 0;
  for (int i = 0; i < live_count_; ++i) set += slots_[live_slots_[i]].set_bits;
  const double bits_per_slot = static_cast<double>(blocks_per_slot_) * bloom::kBlockBits;
  return static_cast<double>(set) / (bits_per_slot * live_count_);
}

double TimeDecayedBloom::EstimatedFalsePositiveRate() const {
  const double bits_per_slot = static_cast<double>(blocks_per_slot_) * bloom::kBlockBits;
  double none = 1.0;  // probability that no live generation reports the key
  for (int i = 0; i < live_count_; ++i) {
    const double fill = static_cast<double>(slots_[live_slots_[i]].set_bits) / bits_per_slot;
    const double load = bloom::KeysPerBlockForFill(fill, geometry_.num_probes);
    none *= 1.0 - bloom::BlockedFalsePositiveRate(load, geometry_.num_probes);
  }
  return 1.0 - none;
}

}  // namespace pagesieve::store
