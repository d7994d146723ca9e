#pragma once

#include <cstdint>

#include "common/types.h"

namespace pagesieve::store::testing {

// A seeded stream of uniformly distributed 64-bit key hashes (SplitMix64),
// standing in for the shard's URL digests. Two streams with different seeds
// do not share keys in any test-sized sample (a repeat has probability
// about n^2 / 2^64).
class KeyStream {
 public:
  explicit KeyStream(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

// Event times well after the epoch, where crawls happen.
inline constexpr int64_t kBaseMs = 1'800'000'000'000;
inline EventTime At(int64_t ms) { return EventTimeFromMillis(ms); }

}  // namespace pagesieve::store::testing
