#include "fingerprint/minhash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "common/split_mix64.h"

namespace pagesieve::fingerprint {
namespace {

// Two sorted sets of random shingles with exactly `shared` of `total`
// distinct shingles in common, so J = shared / total; the rest split evenly.
struct SetPair {
  std::vector<uint64_t> a, b;
  double jaccard = 0;
};

SetPair MakePair(size_t total, size_t shared, std::mt19937_64& rng) {
  SetPair p;
  for (size_t i = 0; i < total; ++i) {
    const uint64_t s = rng();
    if (i < shared) {
      p.a.push_back(s);
      p.b.push_back(s);
    } else {
      ((i - shared) % 2 == 0 ? p.a : p.b).push_back(s);
    }
  }
  std::sort(p.a.begin(), p.a.end());
  std::sort(p.b.begin(), p.b.end());
  p.jaccard = static_cast<double>(shared) / static_cast<double>(total);
  return p;
}

double Estimate(MinHasher& hasher, const SetPair& p) {
  std::optional<MinHashSketch> a = hasher.Sketch(p.a);
  std::optional<MinHashSketch> b = hasher.Sketch(p.b);
  EXPECT_TRUE(a && b);
  return a && b ? EstimateJaccard(*a, *b).value() : -1;
}

struct ErrorStats {
  double bias = 0;     // mean of estimate - J
  double rmse = 0;     // root mean square of estimate - J
  double max_abs = 0;  // largest |estimate - J|
};

ErrorStats MeasureError(MinHashOptions options, size_t total, double jaccard, int trials,
                        uint64_t seed) {
  MinHasher hasher(options);
  std::mt19937_64 rng(seed);
  ErrorStats s;
  for (int t = 0; t < trials; ++t) {
    SetPair p = MakePair(total, static_cast<size_t>(std::lround(jaccard * total)), rng);
    const double err = Estimate(hasher, p) - p.jaccard;
    s.bias += err / trials;
    s.rmse += err * err / trials;
    s.max_abs = std::max(s.max_abs, std::abs(err));
  }
  s.rmse = std::sqrt(s.rmse);
  return s;
}

// The error bound the near tier can count on: the binomial standard error
// sqrt(J (1 - J) / slots) of an estimate from independent slots. Over 300
// seeded pairs per threshold the spread must match it within 20 %, the mean
// must be unbiased (within 4 standard errors of the mean) and no estimate
// may stray more than 4.5 standard errors.
void ExpectWithinBinomialError(MinHashOptions options, size_t total) {
  for (double j : {0.5, 0.6, 0.7, 0.8, 0.9}) {
    const int trials = 300;
    const double sigma = std::sqrt(j * (1 - j) / options.slots);
    ErrorStats s = MeasureError(options, total, j, trials, 1000 + static_cast<uint64_t>(j * 10));
    EXPECT_LT(std::abs(s.bias), 4 * sigma / std::sqrt(trials)) << "J=" << j << " n=" << total;
    EXPECT_LT(s.rmse, 1.2 * sigma) << "J=" << j << " n=" << total;
    EXPECT_LT(s.max_abs, 4.5 * sigma) << "J=" << j << " n=" << total;
  }
}

TEST(MinHashTest, EstimateIsWithinTheBinomialErrorOnLargeSets) {
  ExpectWithinBinomialError(MinHashOptions{}, 2000);  // every slot filled
}

TEST(MinHashTest, EstimateIsWithinTheBinomialErrorAtWiderSlots) {
  ExpectWithinBinomialError({.slots = 128, .bits = 16}, 2000);
  ExpectWithinBinomialError({.slots = 64, .bits = 32}, 2000);
}

// Fewer shingles than slots: most slots are densified, and the estimate
// must stay as good (the point of optimal densification).
TEST(MinHashTest, EstimateIsWithinTheBinomialErrorOnSetsSmallerThanTheSketch) {
  ExpectWithinBinomialError(MinHashOptions{}, 60);
}

TEST(MinHashTest, MoreSlotsGiveSmallerErrors) {
  const double small = MeasureError({.slots = 64}, 1000, 0.7, 200, 5).rmse;
  const double large = MeasureError({.slots = 512}, 1000, 0.7, 200, 5).rmse;
  EXPECT_LT(large, small / 2);  // sqrt(8) = 2.8 expected
}

TEST(MinHashTest, EightBitSlotsAreCorrectedForChanceAgreement) {
  ErrorStats s = MeasureError({.bits = 8}, 1000, 0.0, 200, 6);
  EXPECT_LT(s.bias, 0.01);  // uncorrected, 1/256 of the slots would agree
  EXPECT_LT(s.max_abs, 0.05);
}

TEST(MinHashTest, IdenticalSetsEstimateOneAndDisjointSetsAboutZero) {
  std::mt19937_64 rng(7);
  MinHasher hasher{MinHashOptions{}};
  SetPair same = MakePair(500, 500, rng);
  EXPECT_EQ(Estimate(hasher, same), 1.0);
  SetPair disjoint = MakePair(1000, 0, rng);
  EXPECT_LT(Estimate(hasher, disjoint), 0.03);
}

TEST(MinHashTest, SketchIsDeterministicAndIgnoresDuplicates) {
  std::mt19937_64 rng(8);
  SetPair p = MakePair(300, 300, rng);
  std::vector<uint64_t> repeated;
  for (uint64_t s : p.a) repeated.insert(repeated.end(), {s, s, s});
  MinHasher one{MinHashOptions{}};
  MinHasher other{MinHashOptions{}};
  EXPECT_EQ(one.Sketch(p.a), other.Sketch(p.a));
  EXPECT_EQ(one.Sketch(p.a), one.Sketch(repeated));
}

TEST(MinHashTest, TooFewDistinctShinglesGiveNoSketch) {
  MinHasher hasher{MinHashOptions{.min_shingles = 32}};
  std::vector<uint64_t> shingles;
  for (uint64_t i = 1; i <= 31; ++i) shingles.insert(shingles.end(), 100, i * 1000);
  EXPECT_FALSE(hasher.Sketch(shingles).has_value()) << "3100 shingles, 31 distinct";
  shingles.push_back(99'999);
  EXPECT_TRUE(hasher.Sketch(shingles).has_value());
  EXPECT_FALSE(hasher.Sketch({}).has_value());
}

// One shingle repeated: never a sketch, whatever min_shingles allows
// otherwise, so a page of one repeated word matches nothing.
TEST(MinHashTest, OneRepeatedShingleNeverGetsASketchByDefault) {
  MinHasher hasher{MinHashOptions{}};
  std::vector<uint64_t> shingles(10'000, 42);
  EXPECT_FALSE(hasher.Sketch(shingles).has_value());
}

TEST(MinHashTest, ZeroSlotsComputeNoSketch) {
  MinHasher hasher{MinHashOptions{.slots = 0}};
  std::mt19937_64 rng(9);
  EXPECT_FALSE(hasher.Sketch(MakePair(500, 500, rng).a).has_value());
}

// FingerprintOptionsFromConfig refuses such options; passing them anyway is
// a bug, caught when the Fingerprinter is built rather than on a page.
TEST(MinHashDeathTest, InvalidOptionsAbortAtConstruction) {
  EXPECT_DEATH(MinHasher({.slots = 8}), "MinHasher with 8 slots");
  EXPECT_DEATH(MinHasher({.bits = 12}), "of 12 bits");
}

// The set size counts distinct shingles (duplicates, as TextSimHasher
// leaves them, count once): the containment rule compares sizes of sets.
TEST(MinHashTest, SketchCarriesTheNumberOfDistinctShingles) {
  std::vector<uint64_t> shingles;
  for (uint64_t i = 0; i < 300; ++i) shingles.push_back(SplitMix64(i / 3));  // each 3 times
  std::sort(shingles.begin(), shingles.end());
  MinHasher hasher{MinHashOptions{}};
  std::optional<MinHashSketch> sketch = hasher.Sketch(shingles);
  ASSERT_TRUE(sketch.has_value());
  EXPECT_EQ(sketch->set_size(), 100u);
}

// Long texts: the sketch stays `slots` values however many shingles there
// are (the cost is one mix and one compare per distinct shingle).
TEST(MinHashTest, SketchSizeIsBoundedForMillionsOfShingles) {
  std::mt19937_64 rng(10);
  std::vector<uint64_t> shingles(2'000'000);
  for (uint64_t& s : shingles) s = rng();
  std::sort(shingles.begin(), shingles.end());
  MinHasher hasher{MinHashOptions{}};
  std::optional<MinHashSketch> sketch = hasher.Sketch(shingles);
  ASSERT_TRUE(sketch.has_value());
  EXPECT_EQ(sketch->slots(), 256);
  EXPECT_EQ(sketch->EncodedSize(), 8u + 256);
  EXPECT_EQ(sketch->set_size(), 2'000'000u);  // distinct random values
}

// A stability guard, like the SimHash's: sketches are stored, so the value
// for fixed shingles must not change within a kFingerprintVersion. Computed
// once by this code (kFingerprintVersion 2, which introduced sketches).
TEST(MinHashTest, SketchOfFixedShinglesNeverChanges) {
  std::vector<uint64_t> shingles;
  for (uint64_t i = 0; i < 100; ++i) shingles.push_back(i * 0x9e3779b97f4a7c15ULL);
  std::sort(shingles.begin(), shingles.end());
  MinHasher hasher{MinHashOptions{.slots = 16, .bits = 16}};
  std::optional<MinHashSketch> sketch = hasher.Sketch(shingles);
  ASSERT_TRUE(sketch.has_value());
  const std::vector<uint32_t> expected = {44946, 44294, 40715, 55404, 23880, 53132, 40508, 51822,
                                          15793, 63155, 43380, 60414, 18527, 6219,  24428, 34402};
  EXPECT_EQ(std::vector<uint32_t>(sketch->values().begin(), sketch->values().end()), expected);
}

}  // namespace
}  // namespace pagesieve::fingerprint
