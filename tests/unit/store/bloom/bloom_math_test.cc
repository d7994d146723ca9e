#include "store/bloom/bloom_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bloom_test_util.h"
#include "store/bloom/probe.h"

namespace pagesieve::store::bloom {
namespace {

using testing::KeyStream;

// A bare blocked filter built from the probe functions, measured against the
// formula that assumes independent probes.
double MeasureBlockedRate(uint64_t blocks, uint64_t keys, int probes, uint64_t queries) {
  std::vector<uint64_t> words(blocks * 8, 0);
  KeyStream inserted(1);
  for (uint64_t i = 0; i < keys; ++i) {
    const uint64_t h = inserted.Next();
    BlockInsert(&words[BlockIndex(h, blocks) * 8], MakeProbeMask(h, probes));
  }
  KeyStream absent(2);
  uint64_t hits = 0;
  for (uint64_t i = 0; i < queries; ++i) {
    const uint64_t h = absent.Next();
    hits += BlockContains(&words[BlockIndex(h, blocks) * 8], MakeProbeMask(h, probes));
  }
  return static_cast<double>(hits) / static_cast<double>(queries);
}

TEST(BloomMathTest, StandardBitsPerKeyIsTheTextbookValue) {
  EXPECT_NEAR(StandardBloomBitsPerKey(0.01), 9.585, 0.001);
  EXPECT_NEAR(StandardBloomBitsPerKey(0.001), 14.378, 0.001);
}

// The bound for G generations, worked by hand at 1 %: each of 5 slots gets
// 1 - 0.99^(1/5) = 0.0020081, 12.927 bits per key, times 5/4.
TEST(BloomMathTest, GenerationalBoundChargesTheStaleGenerationAndTheUnion) {
  EXPECT_NEAR(GenerationalBloomBitsPerLiveKey(0.01, 4), 16.158, 0.002);
  // One generation: two slots, twice the keys, each at about half the rate.
  EXPECT_NEAR(GenerationalBloomBitsPerLiveKey(0.01, 1),
              2 * StandardBloomBitsPerKey(PerFilterRateForUnion(0.01, 2)), 1e-9);
}

TEST(BloomMathTest, BestGenerationCountIsInteriorAndBelowEveryOther) {
  const double best = BestGenerationalBloomBitsPerLiveKey(0.01);
  EXPECT_NEAR(best, 15.89, 0.01);  // at G = 7
  for (int g : {1, 2, 4, 6, 8, 16, 100}) EXPECT_LE(best, GenerationalBloomBitsPerLiveKey(0.01, g));
  // However the generations are cut, decay costs far more than 10 % over an
  // undecayed filter: that target can only be read against this bound.
  EXPECT_GT(best, 1.6 * StandardBloomBitsPerKey(0.01));
}

TEST(BloomMathTest, EmptyFilterHasNoFalsePositives) {
  EXPECT_EQ(BlockedFalsePositiveRate(0.0, 7), 0.0);
  EXPECT_EQ(BlockedFillRatio(0.0, 7), 0.0);
}

TEST(BloomMathTest, RateGrowsWithLoad) {
  double previous = 0.0;
  for (double load = 1; load <= 200; load += 7) {
    const double rate = BlockedFalsePositiveRate(load, 6);
    EXPECT_GT(rate, previous) << load;
    previous = rate;
  }
}

// The textbook formula (1 - (1 - 1/B)^(jk))^k ignores that the bits set in
// a 512-bit block vary around their mean; the exact rate is higher.
TEST(BloomMathTest, ExactRateExceedsTheTextbookApproximation) {
  const double q = std::pow(1.0 - 1.0 / kBlockBits, 9);
  BlockRateTable table(9);
  for (long j : {10L, 37L, 80L}) {
    const double textbook = std::pow(1.0 - std::pow(q, static_cast<double>(j)), 9);
    EXPECT_GT(table.At(j), textbook) << j;
    EXPECT_LT(table.At(j), 1.2 * textbook) << j;
  }
}

TEST(BloomMathTest, SingleProbeRateIsTheFractionOfBitsSet) {
  BlockRateTable table(1);
  for (long j : {1L, 5L, 100L}) {
    EXPECT_NEAR(table.At(j), 1.0 - std::pow(1.0 - 1.0 / kBlockBits, static_cast<double>(j)), 1e-12);
  }
}

TEST(BloomMathTest, SaturatedFilterReportsEverything) {
  EXPECT_NEAR(BlockedFalsePositiveRate(1e6, 6), 1.0, 1e-9);
}

// The reason blocked filters need more bits: at 10 bits per key and 7
// probes, a standard filter has (1 - e^(-0.7))^7.
TEST(BloomMathTest, BlockedFilterIsLessAccurateThanStandardAtEqualSize) {
  const double standard = std::pow(1.0 - std::exp(-0.7), 7);
  const double blocked = BlockedFalsePositiveRate(kBlockBits / 10.0, 7);
  EXPECT_GT(blocked, standard);
  EXPECT_LT(blocked, 1.5 * standard);
}

// Probes derived by multiplication must behave like independent probes, or
// every size the filter computes would be wrong.
TEST(BloomMathTest, FormulaMatchesMeasuredRateOfProbes) {
  constexpr uint64_t kBlocks = 10'000;
  constexpr uint64_t kQueries = 300'000;
  for (int probes : {5, 8, 11}) {
    for (double load : {30.0, 55.0}) {
      const double expected = BlockedFalsePositiveRate(load, probes);
      const double measured =
          MeasureBlockedRate(kBlocks, static_cast<uint64_t>(load * kBlocks), probes, kQueries);
      const double sigma = std::sqrt(expected * (1 - expected) / kQueries);
      EXPECT_NEAR(measured, expected, 5 * sigma + 0.005 * expected)
          << "probes " << probes << " load " << load;
    }
  }
}

TEST(BloomMathTest, FillRatioInvertsToItsLoad) {
  for (double load : {0.5, 10.0, 50.0, 120.0}) {
    EXPECT_NEAR(KeysPerBlockForFill(BlockedFillRatio(load, 8), 8), load, 1e-6 * load);
  }
}

TEST(BloomMathTest, FullFillMeansAVeryLargeLoad) {
  EXPECT_GT(KeysPerBlockForFill(1.0, 8), 1e6);
  EXPECT_GT(BlockedFalsePositiveRate(KeysPerBlockForFill(1.0, 8), 8), 0.999);
}

TEST(BloomMathTest, UnionRateIsOneMinusProductOfMisses) {
  EXPECT_NEAR(UnionFalsePositiveRate(0.1, 2), 1 - 0.9 * 0.9, 1e-12);
  EXPECT_NEAR(UnionFalsePositiveRate(PerFilterRateForUnion(0.01, 5), 5), 0.01, 1e-12);
  EXPECT_LT(PerFilterRateForUnion(0.01, 5), 0.01 / 5 * 1.01);
  EXPECT_GT(PerFilterRateForUnion(0.01, 5), 0.01 / 5);
}

}  // namespace
}  // namespace pagesieve::store::bloom
