#include "store/fuse/binary_fuse.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/split_mix64.h"

namespace pagesieve::store::fuse {
namespace {

std::vector<uint64_t> Keys(uint64_t seed, size_t n) {
  SplitMix64Stream s(seed);
  std::vector<uint64_t> keys(n);
  for (uint64_t& k : keys) k = s.Next();
  return keys;
}

TEST(BinaryFuseTest, NoKeysAnswersNoForEveryKey) {
  std::vector<uint64_t> none;
  auto f = BinaryFuse::Build(&none, 8);
  ASSERT_TRUE(f.ok());
  for (uint64_t k : Keys(3, 10'000)) EXPECT_FALSE(f->MayContain(k));
  EXPECT_EQ(f->data_bytes(), 0u);
}

TEST(BinaryFuseTest, OneKeyIsFound) {
  std::vector<uint64_t> one = {42};
  auto f = BinaryFuse::Build(&one, 8);
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(f->MayContain(42));
}

TEST(BinaryFuseTest, EveryKeyIsFoundWhateverTheSizeAndDuplicates) {
  for (size_t n : {2u, 3u, 10u, 100u, 1'000u, 10'000u, 100'000u, 300'000u}) {
    std::vector<uint64_t> keys = Keys(n, n);
    std::vector<uint64_t> with_duplicates = keys;
    with_duplicates.insert(with_duplicates.end(), keys.begin(), keys.begin() + n / 2);
    auto f = BinaryFuse::Build(&with_duplicates, 8);
    ASSERT_TRUE(f.ok()) << n << ": " << f.status().ToString();
    EXPECT_EQ(f->shape().keys, n);
    for (uint64_t k : keys) ASSERT_TRUE(f->MayContain(k)) << n;
  }
}

// The rate is 2^-f whatever the load: measured on 2 M absent keys it must
// lie within 5 sigma of it, for several widths.
TEST(BinaryFuseTest, FalsePositiveRateIsTwoToTheMinusFingerprintBits) {
  for (int bits : {4, 7, 8, 10}) {
    std::vector<uint64_t> keys = Keys(1, 200'000);
    auto f = BinaryFuse::Build(&keys, bits);
    ASSERT_TRUE(f.ok());
    const double p = std::ldexp(1.0, -bits);
    constexpr int kProbes = 2'000'000;
    SplitMix64Stream absent(0xABCDEF);
    int hits = 0;
    for (int i = 0; i < kProbes; ++i) hits += f->MayContain(absent.Next());
    const double rate = static_cast<double>(hits) / kProbes;
    const double sigma = std::sqrt(p * (1 - p) / kProbes);
    EXPECT_NEAR(rate, p, 5 * sigma) << bits << " bits";
  }
}

// About 1.125 f bits per key from a million keys on (more below).
TEST(BinaryFuseTest, AMillionKeysTakeUnderOnePointOneFiveSlotsPerKey) {
  std::vector<uint64_t> keys = Keys(9, 1'000'000);
  auto f = BinaryFuse::Build(&keys, 8);
  ASSERT_TRUE(f.ok());
  EXPECT_LT(static_cast<double>(f->shape().slots()) / 1e6, 1.15);
}

TEST(BinaryFuseTest, ImpossibleShapesAreRefused) {
  FuseShape s = ShapeFor(1000, 8);
  s.keys = 1000;
  EXPECT_TRUE(BinaryFuse::ValidateShape(s).ok());
  FuseShape bad = s;
  bad.segment_length = 1000;  // not a power of two
  EXPECT_EQ(BinaryFuse::ValidateShape(bad).code(), StatusCode::kCorruption);
  bad = s;
  bad.fingerprint_bits = 40;
  EXPECT_EQ(BinaryFuse::ValidateShape(bad).code(), StatusCode::kCorruption);
  bad = s;
  bad.keys = s.slots() + 1;
  EXPECT_EQ(BinaryFuse::ValidateShape(bad).code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace pagesieve::store::fuse
