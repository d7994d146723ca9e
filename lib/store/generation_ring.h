#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "common/types.h"

namespace pagesieve::store {

// The generations of an in-memory index of the near store (SimHashIndex,
// LshIndex): which generation of event time each of kSlots tag values
// stands for, and how many values each holds.
//
// An index tags every value it stores with the slot of the generation of
// the time the value was indexed (`width` of event time each), and drops a
// generation whole, by sweeping out the values of its slot, once nothing
// live can be in it. Slots are used as a ring: generations kSlots or more
// apart cannot both be live (the near store's live window spans ttl + width,
// 9 widths), so a newer generation claiming an older one's slot evicts it.
// Not thread-safe (part of an index).
class GenerationRing {
 public:
  static constexpr int kSlotBits = 5;
  static constexpr int kSlots = 1 << kSlotBits;

  explicit GenerationRing(Duration width);

  // Where a value indexed at `t` goes.
  struct Claim {
    int slot = -1;       // -1: the generation is dropped; do not index
    uint32_t evict = 0;  // a slot mask to sweep first: an older generation held it
  };
  Claim SlotFor(EventTime t);
  // One more value in `slot`.
  void Count(int slot) { ++slots_[slot].size; }
  // The values of the slots in `mask` were swept: forgets them and returns
  // how many there were.
  size_t Release(uint32_t mask);
  // Drops the generations that end before `oldest` (the earliest time a
  // live entry can have been indexed at): returns the mask of their slots,
  // whose values the caller sweeps and then Release()s.
  uint32_t DropBefore(EventTime oldest);

  // Generations holding values.
  size_t generations() const;

 private:
  int64_t GenerationOf(EventTime t) const;

  const int64_t width_ms_;
  int64_t first_id_;  // generations below it are dropped
  struct Slot {
    int64_t id;
    size_t size;  // 0: free
  };
  std::array<Slot, kSlots> slots_{};
};

}  // namespace pagesieve::store
