#include "fingerprint/simhash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace pagesieve::fingerprint {
namespace {

TEST(HammingDistanceTest, CountsDifferingBits) {
  EXPECT_EQ(HammingDistance(0, 0), 0);
  EXPECT_EQ(HammingDistance(0, ~uint64_t{0}), 64);
  EXPECT_EQ(HammingDistance(0b1011, 0b0010), 2);
  EXPECT_EQ(HammingDistance(uint64_t{1} << 63, 1), 2);
}

TEST(FeatureWeightTest, IsOnePlusLogOfTermFrequencyInFixedPoint) {
  EXPECT_EQ(FeatureWeight(1, 1.0), kWeightScale);
  EXPECT_NEAR(static_cast<double>(FeatureWeight(10, 1.0)) / kWeightScale, 1.0 + std::log(10.0),
              1.0 / kWeightScale);
  EXPECT_EQ(FeatureWeight(1, 2.0), 2 * kWeightScale);
}

TEST(FeatureWeightTest, GrowsSlowerThanTermFrequency) {
  EXPECT_GT(FeatureWeight(2, 1.0), FeatureWeight(1, 1.0));
  EXPECT_LT(FeatureWeight(100, 1.0), 10 * FeatureWeight(1, 1.0));
}

TEST(SimHashAccumulatorTest, OneFeatureGivesItsOwnBits) {
  SimHashAccumulator acc;
  acc.Add(0x8000'0000'1234'abcdULL, 5);
  EXPECT_EQ(acc.Finish(), 0x8000'0000'1234'abcdULL);
}

TEST(SimHashAccumulatorTest, HeavierFeatureWinsEveryBit) {
  SimHashAccumulator acc;
  acc.Add(0xffff'0000'ffff'0000ULL, 3);
  acc.Add(0x0000'ffff'0000'ffffULL, 2);
  EXPECT_EQ(acc.Finish(), 0xffff'0000'ffff'0000ULL);
}

TEST(SimHashAccumulatorTest, TieClearsTheBit) {
  SimHashAccumulator acc;
  acc.Add(~uint64_t{0}, 7);
  acc.Add(0, 7);
  EXPECT_EQ(acc.Finish(), 0u);
}

// Unit-weight features take a counting shortcut; the result must be exactly
// that of the definition, summed bit by bit, across counter flushes.
TEST(SimHashAccumulatorTest, CountingShortcutEqualsTheDefinition) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 20; ++trial) {
    SimHashAccumulator acc;
    std::array<int64_t, 64> sums{};
    const int features = 1 + static_cast<int>(rng() % 2000);
    for (int i = 0; i < features; ++i) {
      // Mostly unit weights, some heavier, and features biased toward a few
      // patterns so that sums land near zero and ties occur.
      uint64_t feature = rng() % 4 == 0 ? rng() : (rng() % 8) * 0x0101'0101'0101'0101ULL;
      int64_t weight = rng() % 5 == 0 ? 1 + static_cast<int64_t>(rng() % 3000) : kWeightScale;
      acc.Add(feature, weight);
      for (int bit = 0; bit < 64; ++bit) sums[bit] += ((feature >> bit) & 1) ? weight : -weight;
    }
    uint64_t expected = 0;
    for (int bit = 0; bit < 64; ++bit) expected |= uint64_t{sums[bit] > 0} << bit;
    EXPECT_EQ(acc.Finish(), expected) << "trial " << trial;
  }
}

TEST(SimHashAccumulatorTest, UnitFeaturesBeyondOneCounterFlush) {
  SimHashAccumulator acc;
  for (int i = 0; i < 1000; ++i) acc.Add(0xf0f0'f0f0'f0f0'f0f0ULL, kWeightScale);
  for (int i = 0; i < 999; ++i) acc.Add(0x0f0f'0f0f'0f0f'0f0fULL, kWeightScale);
  EXPECT_EQ(acc.Finish(), 0xf0f0'f0f0'f0f0'f0f0ULL);
}

TEST(SimHashAccumulatorTest, NoFeaturesIsZero) { EXPECT_EQ(SimHashAccumulator().Finish(), 0u); }

TEST(WeightedSimHashTest, DoesNotDependOnFeatureOrder) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> shingles;
  for (int i = 0; i < 500; ++i) shingles.push_back(rng() % 300 == 0 ? 42 : rng());
  std::vector<uint64_t> emphasized = {shingles[3], shingles[9], 12345};
  std::vector<uint64_t> shuffled = shingles;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  std::vector<uint64_t> emphasized_copy = emphasized;
  EXPECT_EQ(WeightedSimHash(&shingles, &emphasized, 2.0),
            WeightedSimHash(&shuffled, &emphasized_copy, 2.0));
}

// MinHash reads the shingles WeightedSimHash leaves sorted. Large inputs
// are sorted by radix: random hashes (every byte pass runs), and hashes
// below 2^40 (the three top passes are skipped, so the result lands in the
// scratch buffer and is copied back).
TEST(WeightedSimHashTest, LeavesTheShinglesSortedWithTheirRepeats) {
  std::mt19937_64 rng(11);
  for (uint64_t mask : {~uint64_t{0}, (uint64_t{1} << 40) - 1}) {
    std::vector<uint64_t> shingles;
    for (int i = 0; i < 5000; ++i) shingles.push_back(rng() & mask);
    for (int i = 0; i < 300; ++i) shingles.push_back(shingles[static_cast<size_t>(i) * 7]);
    std::vector<uint64_t> expected = shingles;
    std::sort(expected.begin(), expected.end());
    std::vector<uint64_t> emphasized;
    WeightedSimHash(&shingles, &emphasized, 2.0);
    EXPECT_EQ(shingles, expected) << "mask " << mask;
  }
}

// Three distinct features set the low 32 bits; one feature that clears them
// repeats `count` times. Its weight 1 + ln(count) beats 3 from count 8 on
// (1 + ln 8 = 3.08) but not at 4 (2.39), where a linear weight already would.
uint64_t LowBitsAgainstRepeatedZero(uint32_t count) {
  std::vector<uint64_t> shingles(count, 0);
  for (uint64_t i = 1; i <= 3; ++i) shingles.push_back(0xffff'ffffULL | (i << 40));
  std::vector<uint64_t> none;
  return WeightedSimHash(&shingles, &none, 1.0) & 0xffff'ffffULL;
}

TEST(WeightedSimHashTest, RepeatedShingleWeighsOnePlusLogOfItsCount) {
  EXPECT_EQ(LowBitsAgainstRepeatedZero(4), 0xffff'ffffULL);
  EXPECT_EQ(LowBitsAgainstRepeatedZero(8), 0u);
}

TEST(WeightedSimHashTest, EmphasisOutweighsFrequency) {
  const uint64_t a = 0x0f0f'0f0f'0f0f'0f0fULL;
  const uint64_t b = ~a;
  std::vector<uint64_t> shingles = {a, a, a, b};  // a: 2.1, b: 1
  std::vector<uint64_t> emphasized = {b, b};      // b: 1 * 3 = 3
  EXPECT_EQ(WeightedSimHash(&shingles, &emphasized, 3.0), b);
}

TEST(WeightedSimHashTest, EmphasizedOnlyShingleIsAFeature) {
  std::vector<uint64_t> shingles;
  std::vector<uint64_t> emphasized = {0x1234};
  EXPECT_EQ(WeightedSimHash(&shingles, &emphasized, 2.0), 0x1234u);
}

}  // namespace
}  // namespace pagesieve::fingerprint
