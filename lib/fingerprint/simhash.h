#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace pagesieve::fingerprint {

// The number of differing bits: the distance between two SimHashes.
inline int HammingDistance(uint64_t a, uint64_t b) { return std::popcount(a ^ b); }

// Feature weights are fixed-point integers in units of 1/kWeightScale, so the
// sums are exact and a SimHash does not depend on the order features are
// added in, nor on how a compiler vectorizes or contracts floating point.
inline constexpr int64_t kWeightScale = 1024;

// The weight of a feature seen `term_frequency` (>= 1) times: 1 + ln(tf),
// times `emphasis` for title and heading features, in fixed point.
int64_t FeatureWeight(uint32_t term_frequency, double emphasis);

// Charikar's SimHash with weights: bit i of the result is set when the
// weights of the features whose bit i is set outweigh those whose bit i is
// clear (a tie clears it). Not thread-safe; cheap to copy.
class SimHashAccumulator {
 public:
  void Add(uint64_t feature, int64_t weight);
  uint64_t Finish() const;

 private:
  std::array<int64_t, 64> sums_{};
};

// The SimHash of a page's shingles. Each distinct hash of `shingles` or
// `emphasized` is one feature; its term frequency is how often it occurs in
// `shingles` (at least 1), and it is emphasized (weighted by `emphasis`) when
// it occurs in `emphasized`. Sorts both vectors in place.
uint64_t WeightedSimHash(std::vector<uint64_t>* shingles, std::vector<uint64_t>* emphasized,
                         double emphasis);

}  // namespace pagesieve::fingerprint
