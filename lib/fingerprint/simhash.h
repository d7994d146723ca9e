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
//
// Most features of a page occur once outside headings and weigh exactly
// kWeightScale. Those are only counted, 64 byte-wide counters at a time
// (one table lookup and one add per byte of the feature instead of 64
// conditional adds, about 7 times faster); the rest are summed bit by bit.
// Both paths are exact, so the result is the same as summing everything.
class SimHashAccumulator {
 public:
  void Add(uint64_t feature, int64_t weight);
  uint64_t Finish();

 private:
  void AddWeighted(uint64_t feature, int64_t weight);
  void AddUnit(uint64_t feature);
  void FlushUnitCounters();

  std::array<int64_t, 64> sums_{};         // weighted features, signed sums per bit
  std::array<int64_t, 64> unit_counts_{};  // unit features with each bit set
  int64_t unit_features_ = 0;
  // Byte j of word i counts unit features with bit 8i+j set since the last
  // flush, which comes before any byte can pass 255.
  std::array<uint64_t, 8> byte_counters_{};
  int pending_ = 0;
};

// The SimHash of a page's shingles. Each distinct hash of `shingles` or
// `emphasized` is one feature; its term frequency is how often it occurs in
// `shingles` (at least 1), and it is emphasized (weighted by `emphasis`) when
// it occurs in `emphasized`. Sorts both vectors in place.
uint64_t WeightedSimHash(std::vector<uint64_t>* shingles, std::vector<uint64_t>* emphasized,
                         double emphasis);

}  // namespace pagesieve::fingerprint
