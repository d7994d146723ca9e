#include "store/lsh_bands.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

namespace pagesieve::store {
namespace {

TEST(LshBandsTest, CandidateProbabilityIsTheSCurve) {
  // 1 - (1 - s^r)^b, by hand for b = 20, r = 5, s = 0.8: s^5 = 0.32768.
  EXPECT_NEAR(BandedCandidateProbability(0.8, 20, 5), 1 - std::pow(1 - 0.32768, 20), 1e-12);
  EXPECT_EQ(BandedCandidateProbability(1.0, 3, 7), 1.0);
  EXPECT_EQ(BandedCandidateProbability(0.0, 3, 7), 0.0);
}

TEST(LshBandsTest, SlotsAgreeByChanceOnceIn2PowBits) {
  EXPECT_DOUBLE_EQ(SlotAgreement(0.0, 8), 1.0 / 256);
  EXPECT_DOUBLE_EQ(SlotAgreement(1.0, 8), 1.0);
  EXPECT_DOUBLE_EQ(SlotAgreement(0.5, 16), 0.5 + 0.5 / 65536);
}

// The derivation's contract at every threshold: the miss rate at t is
// within the target, one band fewer would miss it, and one row more would
// not fit in the sketch.
TEST(LshBandsTest, DerivedBandsMeetTheMissRateWithTheMostRows) {
  for (int slots : {64, 128, 256, 1024}) {
    for (int bits : {8, 16, 32}) {
      for (double t : {0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95}) {
        StatusOr<LshBands> lsh = LshBands::Create(slots, bits, t);
        ASSERT_TRUE(lsh.ok()) << lsh.status().ToString();
        const std::string at =
            std::to_string(slots) + "x" + std::to_string(bits) + " t=" + std::to_string(t);
        const int b = lsh->bands(), r = lsh->rows();
        const double p = SlotAgreement(t, bits);
        EXPECT_LE(b * r, slots) << at;
        EXPECT_LE(1 - lsh->CandidateProbability(t), LshBands::kDefaultMaxMiss) << at;
        if (b > 1) {
          EXPECT_GT(1 - BandedCandidateProbability(p, b - 1, r), LshBands::kDefaultMaxMiss) << at;
        }
        // r + 1 rows need more bands than fit.
        const double miss_with_more_rows =
            1 - BandedCandidateProbability(p, slots / (r + 1), r + 1);
        EXPECT_GT(miss_with_more_rows, LshBands::kDefaultMaxMiss) << at;
      }
    }
  }
}

// The defaults (256 slots of 8 bits) at the thresholds docs/fingerprints.md
// tabulates.
TEST(LshBandsTest, DefaultSketchLayouts) {
  auto layout = [](double t) {
    LshBands lsh = LshBands::Create(256, 8, t).value();
    return std::to_string(lsh.bands()) + "x" + std::to_string(lsh.rows());
  };
  EXPECT_EQ(layout(0.5), "35x3");
  EXPECT_EQ(layout(0.7), "37x6");
  EXPECT_EQ(layout(0.8), "25x8");
  EXPECT_EQ(layout(0.9), "18x14");
}

TEST(LshBandsTest, PairsWellBelowTheThresholdAreRarelyCandidates) {
  LshBands lsh = LshBands::Create(256, 8, 0.8).value();
  EXPECT_GE(lsh.CandidateProbability(0.8), 0.99);
  EXPECT_LT(lsh.CandidateProbability(0.5), 0.1);
  EXPECT_LT(lsh.CandidateProbability(0.2), 1e-4);
  // Unrelated pages: only chance agreement of 8-bit slots.
  EXPECT_LT(lsh.CandidateProbability(0.0), 1e-15);
}

TEST(LshBandsTest, JaccardOneIsOneBandOfEverySlot) {
  LshBands lsh = LshBands::Create(128, 16, 1.0).value();
  EXPECT_EQ(lsh.bands(), 1);
  EXPECT_EQ(lsh.rows(), 128);
}

// Monte Carlo: slots agreeing independently with probability p, a band hits
// when all its rows agree; the hit rate must match the formula.
TEST(LshBandsTest, SimulatedSketchesFollowTheSCurve) {
  std::mt19937_64 rng(3);
  LshBands lsh = LshBands::Create(256, 8, 0.7).value();
  for (double j : {0.5, 0.6, 0.7, 0.8}) {
    const double p = SlotAgreement(j, 8);
    std::bernoulli_distribution agree(p);
    const int trials = 20'000;
    int candidates = 0;
    for (int t = 0; t < trials; ++t) {
      bool hit = false;
      for (int band = 0; band < lsh.bands() && !hit; ++band) {
        bool all = true;
        for (int row = 0; row < lsh.rows(); ++row) all = agree(rng) && all;
        hit = all;
      }
      candidates += hit ? 1 : 0;
    }
    const double expected = lsh.CandidateProbability(j);
    const double sigma = std::sqrt(expected * (1 - expected) / trials);
    EXPECT_NEAR(static_cast<double>(candidates) / trials, expected, 4 * sigma + 1e-4) << j;
  }
}

TEST(LshBandsTest, RejectsBadArgumentsNamingTheKey) {
  StatusOr<LshBands> lsh = LshBands::Create(256, 8, 0.0);
  ASSERT_FALSE(lsh.ok());
  EXPECT_NE(lsh.status().message().find("near.jaccard"), std::string::npos);
  EXPECT_FALSE(LshBands::Create(256, 8, 1.5).ok());
  EXPECT_FALSE(LshBands::Create(256, 12, 0.8).ok());
  EXPECT_FALSE(LshBands::Create(0, 8, 0.8).ok());
  EXPECT_FALSE(LshBands::Create(256, 8, 0.8, 0.0).ok());
  EXPECT_FALSE(LshBands::Create(256, 8, 0.8, 1.0).ok());
}

TEST(LshBandsTest, UnreachableMissRateIsRefused) {
  // 16 slots cannot catch pairs at J = 0.05 99.99 % of the time: (0.95)^16 = 0.44.
  StatusOr<LshBands> lsh = LshBands::Create(16, 32, 0.05, 1e-4);
  ASSERT_FALSE(lsh.ok());
  EXPECT_NE(lsh.status().message().find("near.minhash_slots"), std::string::npos);
}

TEST(LshBandsTest, FromBandsRowsMustFitTheSketch) {
  EXPECT_TRUE(LshBands::FromBandsRows(256, 8, 25, 8).ok());
  EXPECT_TRUE(LshBands::FromBandsRows(256, 8, 32, 8).ok());
  EXPECT_FALSE(LshBands::FromBandsRows(256, 8, 33, 8).ok());
  EXPECT_FALSE(LshBands::FromBandsRows(256, 8, 0, 8).ok());
  EXPECT_FALSE(LshBands::FromBandsRows(256, 8, 8, 0).ok());
}

}  // namespace
}  // namespace pagesieve::store
