#pragma once

#include <cstdint>

namespace pagesieve {

// SplitMix64 (Steele, Lea and Flood, 2014): a bijective mixer that spreads
// any 64-bit integer uniformly over 64 bits. Synthetic keys in tests and
// benchmarks come from it, so that record i can be made again from i alone.
constexpr uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A seeded stream of SplitMix64 values: uniformly distributed 64-bit keys.
// Two streams of different seeds share no key in any test-sized sample (a
// repeat has probability about n^2 / 2^64).
class SplitMix64Stream {
 public:
  explicit SplitMix64Stream(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    const uint64_t v = SplitMix64(state_);
    state_ += 0x9e3779b97f4a7c15ull;
    return v;
  }

 private:
  uint64_t state_;
};

}  // namespace pagesieve
