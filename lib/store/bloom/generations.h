#pragma once

#include <cstdint>

#include "common/types.h"

namespace pagesieve::store::bloom {

// Event time is cut into generations of a fixed width, numbered from the
// epoch: generation i covers [i * width, (i + 1) * width). Pure arithmetic,
// shared by the filter and its tests.

inline constexpr int64_t kNoGeneration = INT64_MIN;

// Division rounding toward minus infinity (event times before the epoch are
// legal inputs, if odd ones). `b` must be positive.
constexpr int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

constexpr int64_t GenerationOf(int64_t time_ms, Duration width) {
  return FloorDiv(time_ms, width.count());
}

// The oldest generation still holding live times at `watermark_ms`: entries
// are live while last_seen >= watermark - ttl, so it is the generation of
// that cutoff. Every older generation is wholly expired. The watermark is
// never negative (it starts at the epoch and only rises), so the
// subtraction cannot overflow.
constexpr int64_t OldestLiveGeneration(int64_t watermark_ms, Duration ttl, Duration width) {
  return GenerationOf(watermark_ms - ttl.count(), width);
}

// The ring slot of a generation, for a ring of `slots` slots.
constexpr int SlotOf(int64_t generation, int slots) {
  const int64_t r = generation % slots;
  return static_cast<int>(r < 0 ? r + slots : r);
}

}  // namespace pagesieve::store::bloom
