#include "store/generation_ring.h"

#include <algorithm>
#include <limits>

namespace pagesieve::store {
namespace {

// Floor division: event times before the epoch get negative generations.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

}  // namespace

GenerationRing::GenerationRing(Duration width)
    : width_ms_(std::max<int64_t>(1, width.count())),
      first_id_(std::numeric_limits<int64_t>::min()) {}

int64_t GenerationRing::GenerationOf(EventTime t) const { return FloorDiv(ToMillis(t), width_ms_); }

GenerationRing::Claim GenerationRing::SlotFor(EventTime t) {
  const int64_t id = GenerationOf(t);
  if (id < first_id_) return {};
  const int s = static_cast<int>(id - FloorDiv(id, kSlots) * kSlots);
  Slot& slot = slots_[s];
  if (slot.size == 0 || slot.id == id) {
    slot.id = id;
    return {s, 0};
  }
  // Two generations kSlots or more apart: the older cannot be live.
  if (slot.id > id) return {};
  slot.id = id;
  return {s, uint32_t{1} << s};
}

size_t GenerationRing::Release(uint32_t mask) {
  size_t released = 0;
  for (int s = 0; s < kSlots; ++s) {
    if ((mask >> s & 1) == 0) continue;
    released += slots_[s].size;
    slots_[s].size = 0;
  }
  return released;
}

uint32_t GenerationRing::DropBefore(EventTime oldest) {
  // Generation id holds times below (id + 1) * width: drop it when that is <= oldest.
  const int64_t keep_from = GenerationOf(oldest);
  if (keep_from <= first_id_) return 0;
  first_id_ = keep_from;
  uint32_t mask = 0;
  for (int s = 0; s < kSlots; ++s) {
    if (slots_[s].size > 0 && slots_[s].id < keep_from) mask |= uint32_t{1} << s;
  }
  return mask;
}

size_t GenerationRing::generations() const {
  return static_cast<size_t>(
      std::ranges::count_if(slots_, [](const Slot& s) { return s.size > 0; }));
}

}  // namespace pagesieve::store
