#pragma once

#include <cstdint>

#include "common/split_mix64.h"
#include "common/types.h"
#include "store/bloom/bloom_options.h"

namespace pagesieve::store::testing {

// Seeded streams of uniformly distributed 64-bit key hashes, standing in
// for the shard's URL digests.
using KeyStream = SplitMix64Stream;

inline constexpr int64_t kHour = 3'600'000;

// A TTL of 4 h cut into 4 generations of 1 h, for `items` URLs at 1 %.
inline BloomOptions FourHourOptions(uint64_t items, size_t page_bytes = 128) {
  BloomOptions o;
  o.expected_items = items;
  o.false_positive_rate = 0.01;
  o.generations = 4;
  o.ttl = Duration(4 * kHour);
  o.page_bytes = page_bytes;
  return o;
}

// Event times well after the epoch, where crawls happen.
inline constexpr int64_t kBaseMs = 1'800'000'000'000;
inline EventTime At(int64_t ms) { return EventTimeFromMillis(ms); }

}  // namespace pagesieve::store::testing
