#pragma once

#include <cstdint>
#include <vector>

#include "common/split_mix64.h"
#include "common/types.h"
#include "store/bloom/bloom_options.h"

namespace pagesieve::store::testing {

using KeyStream = SplitMix64Stream;

inline constexpr int64_t kHour = 3'600'000;
// Event times well after the epoch, where crawls happen.
inline constexpr int64_t kBaseMs = 1'800'000'000'000;
inline EventTime At(int64_t ms) { return EventTimeFromMillis(ms); }

// A TTL of 7 h cut into 7 generations of 1 h (the URL store's shape), for
// `items` URLs at 1 %.
inline BloomOptions SevenHourOptions(uint64_t items, size_t page_bytes = 64) {
  BloomOptions o;
  o.expected_items = items;
  o.false_positive_rate = 0.01;
  o.generations = 7;
  o.ttl = Duration(7 * kHour);
  o.page_bytes = page_bytes;
  return o;
}

inline std::vector<uint64_t> Keys(uint64_t seed, size_t n) {
  KeyStream s(seed);
  std::vector<uint64_t> keys(n);
  for (uint64_t& k : keys) k = s.Next();
  return keys;
}

}  // namespace pagesieve::store::testing
