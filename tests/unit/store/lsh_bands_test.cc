#include "store/lsh_bands.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "common/split_mix64.h"

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

// The encoded form of fingerprint::MinHashSketch::Encode: version, bits,
// slots (2 bytes little-endian), then each slot in bits / 8 little-endian
// bytes. Slot i holds the low `bits` bits of SplitMix64(1000 * bits + i).
std::string GoldenSketch(int slots, int bits, int version = 3, uint32_t set_size = 0) {
  std::string s = {static_cast<char>(version),        static_cast<char>(bits),
                   static_cast<char>(slots & 0xff),   static_cast<char>(slots >> 8),
                   static_cast<char>(set_size),       static_cast<char>(set_size >> 8),
                   static_cast<char>(set_size >> 16), static_cast<char>(set_size >> 24)};
  for (int i = 0; i < slots; ++i) {
    const uint64_t v = SplitMix64(static_cast<uint64_t>(1000 * bits + i));
    for (int b = 0; b < bits / 8; ++b) s.push_back(static_cast<char>(v >> (8 * b)));
  }
  return s;
}

// Band keys of the sketches of GoldenSketch, as printed once by the band
// hashing lib/fingerprint had then (band i: XXH3-64, seeded with
// kMinHashSeed + i, of the bytes of its slots). The keys decide which
// entries an index finds; they must not change within a fingerprint version.
TEST(LshBandsTest, KeysOfGoldenSketchesAreStable) {
  struct Case {
    int slots, bits, bands, rows;
    std::vector<uint64_t> keys;
  };
  const Case cases[] = {
      {256, 8, 25, 8, {0x167b4cebc0b9ecb2ULL, 0x11f6e94d75f39466ULL, 0x6de0cc5ede89cc0aULL,
                       0x4983597b8d6c60acULL, 0x3a789c2d0899562aULL, 0x25cae67209f97bd5ULL,
                       0xb1f285691e2a5c0bULL, 0x3763f3192b62c9b3ULL, 0xc177f5b4594da5d4ULL,
                       0xfae67520af22b144ULL, 0x0a53032ba96cfbb9ULL, 0x0d07aa73296b8320ULL,
                       0x62bdec7a10970e34ULL, 0xc17329e923726b41ULL, 0x4c22616840bc14ecULL,
                       0x35f693251de75688ULL, 0x81bfd4905e33a925ULL, 0x8e74e9c6dca2512fULL,
                       0x4935334f24c7847fULL, 0x64d425306a1b37e0ULL, 0x81e2724eddb4e4ecULL,
                       0xdba87b41282017c4ULL, 0xe468648f96c3af9eULL, 0xe83855fa9ecb0d75ULL,
                       0x4402b71b74bd435dULL}},
      {128,
       16,
       6,
       20,
       {0x91f6df976a4c59c7ULL, 0xa9b08dfc6a47ded0ULL, 0x0939799ca46bf8d3ULL, 0xa791c17d5a417bd0ULL,
        0x21b862120b95da91ULL, 0x3c3066ec5c12ca0cULL}},
      {64, 32, 3, 5, {0x52956388e9cd0ff4ULL, 0x96eac0736f02d823ULL, 0x6b10bd8f3f4e3a78ULL}},
  };
  for (const Case& c : cases) {
    const LshBands lsh = LshBands::FromBandsRows(c.slots, c.bits, c.bands, c.rows).value();
    std::vector<uint64_t> keys;
    ASSERT_TRUE(lsh.Keys(GoldenSketch(c.slots, c.bits), &keys)) << c.slots;
    EXPECT_EQ(keys, c.keys) << c.slots << " slots of " << c.bits << " bits";
  }
}

// Band keys hash the slots only: two sketches of the same slots and other
// set sizes land in the same buckets (the containment rule, not the index,
// looks at sizes).
TEST(LshBandsTest, KeysIgnoreTheSetSize) {
  const LshBands lsh = LshBands::Create(256, 8, 0.8).value();
  std::vector<uint64_t> small, large;
  ASSERT_TRUE(lsh.Keys(GoldenSketch(256, 8, 3, 40), &small));
  ASSERT_TRUE(lsh.Keys(GoldenSketch(256, 8, 3, 4000), &large));
  EXPECT_EQ(small, large);
  EXPECT_TRUE(lsh.ShareBand(GoldenSketch(256, 8, 3, 40), GoldenSketch(256, 8, 3, 4000)));
}

TEST(LshBandsTest, SketchesOfOtherParametersHaveNoKeys) {
  const LshBands lsh = LshBands::Create(256, 8, 0.8).value();
  std::vector<uint64_t> keys = {1};
  EXPECT_FALSE(lsh.Keys(GoldenSketch(128, 8), &keys));
  EXPECT_TRUE(keys.empty());
  EXPECT_FALSE(lsh.Keys(GoldenSketch(256, 16), &keys));
  EXPECT_FALSE(lsh.Keys("", &keys));
  const std::string sketch = GoldenSketch(256, 8);
  EXPECT_FALSE(lsh.Keys(sketch.substr(0, sketch.size() - 1), &keys));
  EXPECT_TRUE(lsh.Keys(sketch, &keys));
  EXPECT_EQ(keys.size(), 25u);
}

TEST(LshBandsTest, EachKeyComesFromItsOwnBandsSlots) {
  const LshBands lsh = LshBands::FromBandsRows(256, 8, 25, 8).value();
  const std::string a = GoldenSketch(256, 8);
  std::string b = a;
  b[kSketchHeaderBytes + 3 * 8 + 2] ^= 1;  // a slot of band 3
  b[kSketchHeaderBytes + 250] ^= 1;        // past the 25 x 8 banded slots
  std::vector<uint64_t> ka, kb;
  ASSERT_TRUE(lsh.Keys(a, &ka));
  ASSERT_TRUE(lsh.Keys(b, &kb));
  for (size_t i = 0; i < ka.size(); ++i) {
    if (i == 3) {
      EXPECT_NE(ka[i], kb[i]);
    } else {
      EXPECT_EQ(ka[i], kb[i]) << "band " << i;
    }
  }
}

// Equal slots in two bands still give two keys, so one index can hold all bands.
TEST(LshBandsTest, BandsWithEqualSlotsHaveDifferentKeys) {
  const LshBands lsh = LshBands::FromBandsRows(256, 8, 25, 8).value();
  std::string zeros = GoldenSketch(256, 8);
  for (size_t i = kSketchHeaderBytes; i < zeros.size(); ++i) zeros[i] = 0;
  std::vector<uint64_t> keys;
  ASSERT_TRUE(lsh.Keys(zeros, &keys));
  EXPECT_NE(keys[0], keys[1]);
}

TEST(LshBandsTest, ShareBandComparesTheBytesOfWholeBands) {
  const LshBands lsh = LshBands::FromBandsRows(256, 8, 25, 8).value();
  const std::string a = GoldenSketch(256, 8);
  std::string b = a;
  for (int band = 0; band < 25; ++band)
    b[kSketchHeaderBytes + band * 8 + band % 8] ^= 1;  // one row of each
  EXPECT_FALSE(lsh.ShareBand(a, b));
  b[kSketchHeaderBytes + 3 * 8 + 3] ^= 1;  // band 3 whole again
  EXPECT_TRUE(lsh.ShareBand(a, b));
  std::string beyond = b;
  beyond[kSketchHeaderBytes + 3 * 8 + 3] ^= 1;
  beyond[kSketchHeaderBytes + 200] ^= 1;  // slot 200 and up are in no band: 25 x 8 slots used
  EXPECT_FALSE(lsh.ShareBand(a, beyond));
  EXPECT_FALSE(lsh.ShareBand(a, GoldenSketch(128, 8)));
  EXPECT_TRUE(lsh.ShareBand(a, a));
}

TEST(LshBandsTest, SketchHeadersMustMatchTheirLength) {
  StatusOr<SketchHeader> h = ParseSketchHeader(GoldenSketch(128, 16, 7, 0x01020304));
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->version, 7);
  EXPECT_EQ(h->bits, 16);
  EXPECT_EQ(h->slots, 128);
  EXPECT_EQ(h->set_size, 0x01020304u);
  EXPECT_FALSE(ParseSketchHeader("").ok());
  EXPECT_FALSE(ParseSketchHeader(std::string("\x03\x08\x00\x00", 4)).ok());  // no set size
  EXPECT_FALSE(
      ParseSketchHeader(std::string("\x03\x08\x00\x00\x00\x00\x00\x00", 8)).ok());  // no slots
  EXPECT_FALSE(ParseSketchHeader(GoldenSketch(128, 16) + "x").ok());
  std::string twelve_bits = GoldenSketch(16, 8);
  twelve_bits[1] = 12;
  EXPECT_FALSE(ParseSketchHeader(twelve_bits).ok());
}

// From fingerprint version 4 a page's title tokens follow the slots: a count
// byte (its high bit a flag the store does not read) and 4 bytes each.
TEST(LshBandsTest, ATitleAfterTheSlotsIsPartOfTheSketch) {
  const std::string sketch = GoldenSketch(128, 16);
  EXPECT_TRUE(ParseSketchHeader(sketch + std::string("\x02", 1) + std::string(8, 'a')).ok());
  EXPECT_TRUE(ParseSketchHeader(sketch + std::string("\x82", 1) + std::string(8, 'a')).ok());
  EXPECT_FALSE(ParseSketchHeader(sketch + std::string("\x02", 1) + std::string(7, 'a')).ok());
  EXPECT_FALSE(ParseSketchHeader(sketch + std::string("\x00", 1)).ok());  // a count of none
  // The title changes no band key.
  StatusOr<LshBands> lsh = LshBands::FromBandsRows(128, 16, 16, 8);
  ASSERT_TRUE(lsh.ok());
  std::vector<uint64_t> plain, titled;
  ASSERT_TRUE(lsh->Keys(sketch, &plain));
  ASSERT_TRUE(lsh->Keys(sketch + std::string("\x01", 1) + "abcd", &titled));
  EXPECT_EQ(plain, titled);
}

}  // namespace
}  // namespace pagesieve::store
