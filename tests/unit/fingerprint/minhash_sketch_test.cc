// The stored form of MinHash sketches, comparisons and LSH band keys.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "fingerprint/minhash.h"
#include "fingerprint/version.h"

namespace pagesieve::fingerprint {
namespace {

MinHashSketch RandomSketch(int slots, int bits, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> values(static_cast<size_t>(slots));
  const uint64_t mask = bits == 32 ? 0xffffffffULL : (uint64_t{1} << bits) - 1;
  for (uint32_t& v : values) v = static_cast<uint32_t>(rng() & mask);
  return MinHashSketch::Create(bits, std::move(values), static_cast<uint32_t>(seed * 1000)).value();
}

void ExpectRefused(std::string_view bytes, std::string_view why) {
  StatusOr<MinHashSketch> decoded = MinHashSketch::Decode(bytes);
  ASSERT_FALSE(decoded.ok()) << why;
  EXPECT_EQ(decoded.status().code(), StatusCode::kInvalidArgument) << why;
}

TEST(MinHashSketchTest, EncodeDecodeRoundTripsEveryWidth) {
  for (int bits : {8, 16, 32}) {
    for (int slots : {16, 128, 1024}) {
      MinHashSketch sketch = RandomSketch(slots, bits, 1);
      std::string bytes = sketch.Encode();
      EXPECT_EQ(bytes.size(), sketch.EncodedSize());
      EXPECT_EQ(bytes.size(), 8u + static_cast<size_t>(slots * bits / 8));
      StatusOr<MinHashSketch> decoded = MinHashSketch::Decode(bytes);
      ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
      EXPECT_EQ(*decoded, sketch);
    }
  }
}

TEST(MinHashSketchTest, EncodingStartsWithVersionWidthAndSlots) {
  std::string bytes = RandomSketch(128, 16, 2).Encode();
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), kFingerprintVersion);
  EXPECT_EQ(bytes[1], 16);
  EXPECT_EQ(bytes[2], static_cast<char>(128));
  EXPECT_EQ(bytes[3], 0);
}

// The set size survives the stored form: the containment rule reads it
// from sketches that come back from the shard and the changelog.
TEST(MinHashSketchTest, SetSizeRoundTripsLittleEndianAfterTheSlotCount) {
  MinHashSketch sketch = MinHashSketch::Create(8, std::vector<uint32_t>(16, 7), 0x01020304).value();
  const std::string bytes = sketch.Encode();
  EXPECT_EQ(bytes.substr(4, 4), std::string("\x04\x03\x02\x01", 4));
  StatusOr<MinHashSketch> decoded = MinHashSketch::Decode(bytes);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->set_size(), 0x01020304u);
}

// |A ∩ B| = J (|A| + |B|) / (1 + J): a set of 100 inside one of 200 has
// J = 0.5 and is wholly contained; disjoint sets share nothing; equal sets
// are contained both ways.
TEST(MinHashSketchTest, ContainmentFollowsFromJaccardAndSizes) {
  EXPECT_NEAR(*EstimateContainment(0.5, 100, 200), 1.0, 1e-9);
  EXPECT_NEAR(*EstimateContainment(0.5, 200, 100), 1.0, 1e-9);
  EXPECT_NEAR(*EstimateContainment(1.0, 300, 300), 1.0, 1e-9);
  EXPECT_NEAR(*EstimateContainment(0.0, 300, 300), 0.0, 1e-9);
  // 50 of 100 shared with a set of 150: J = 50 / 200.
  EXPECT_NEAR(*EstimateContainment(0.25, 100, 150), 0.5, 1e-9);
  // An estimate above what the sizes allow is clamped, not above 1.
  EXPECT_EQ(*EstimateContainment(0.9, 100, 400), 1.0);
  // Unknown sizes (sketches of an older build, or made by hand): none.
  EXPECT_FALSE(EstimateContainment(0.5, 0, 200).has_value());
  EXPECT_FALSE(EstimateContainment(0.5, 100, 0).has_value());
}

// A page's title tokens, and whether the title counts, follow the slots
// (fingerprint version 4), so that the near tier can compare titles of
// sketches that come back from the shard; a sketch without a title keeps
// the length it had.
TEST(MinHashSketchTest, TitleRoundTripsAfterTheSlots) {
  MinHashSketch titled =
      MinHashSketch::Create(8, std::vector<uint32_t>(16, 7), 50, {{3, 9, 0xdeadbeef}, true})
          .value();
  const std::string bytes = titled.Encode();
  EXPECT_EQ(bytes.size(), 8u + 16u + 1u + 12u);
  EXPECT_EQ(bytes.size(), titled.EncodedSize());
  EXPECT_EQ(static_cast<unsigned char>(bytes[24]), 0x83);
  StatusOr<MinHashSketch> decoded = MinHashSketch::Decode(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, titled);
  EXPECT_TRUE(decoded->title().counts);

  MinHashSketch carried =
      MinHashSketch::Create(8, std::vector<uint32_t>(16, 7), 50, {{3}, false}).value();
  decoded = MinHashSketch::Decode(carried.Encode());
  ASSERT_TRUE(decoded.ok());
  EXPECT_FALSE(decoded->title().counts);
  EXPECT_EQ(decoded->title().tokens.size(), 1u);

  ExpectRefused(bytes.substr(0, bytes.size() - 1), "a title token cut short");
  ExpectRefused(bytes.substr(0, 24) + std::string(1, '\0'), "a title of no tokens");
  EXPECT_FALSE(MinHashSketch::Create(8, std::vector<uint32_t>(16, 7), 50,
                                     {std::vector<uint32_t>(33, 1), true})
                   .ok());
}

TEST(MinHashSketchTest, TruncatedOrExtendedBytesAreRefused) {
  std::string bytes = RandomSketch(128, 16, 3).Encode();
  ExpectRefused("", "empty");
  ExpectRefused(bytes.substr(0, 3), "shorter than the header");
  ExpectRefused(bytes.substr(0, 7), "no room for the set size");
  ExpectRefused(bytes.substr(0, bytes.size() - 1), "one byte short");
  ExpectRefused(bytes + '\0', "one byte too many");
}

TEST(MinHashSketchTest, AnotherFingerprintVersionIsRefused) {
  std::string bytes = RandomSketch(128, 16, 4).Encode();
  bytes[0] = static_cast<char>(kFingerprintVersion - 1);
  StatusOr<MinHashSketch> decoded = MinHashSketch::Decode(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("fingerprint version"), std::string::npos)
      << decoded.status().message();
}

TEST(MinHashSketchTest, ImpossibleHeadersAreRefused) {
  std::string bytes = RandomSketch(128, 16, 5).Encode();
  std::string bad_width = bytes;
  bad_width[1] = 12;
  ExpectRefused(bad_width, "12-bit slots");
  std::string too_few = bytes;
  too_few[2] = 8;  // 8 slots, below kMinSlots, and the length no longer matches
  ExpectRefused(too_few, "8 slots");
  std::string too_many = RandomSketch(1024, 8, 6).Encode();
  too_many[3] = 0x08;  // 2048 slots
  ExpectRefused(too_many, "2048 slots");
}

TEST(MinHashSketchTest, CreateRefusesValuesWiderThanTheSlots) {
  EXPECT_FALSE(MinHashSketch::Create(8, std::vector<uint32_t>(128, 256)).ok());
  EXPECT_FALSE(MinHashSketch::Create(16, std::vector<uint32_t>(15, 0)).ok());
  EXPECT_FALSE(MinHashSketch::Create(24, std::vector<uint32_t>(128, 0)).ok());
  EXPECT_TRUE(MinHashSketch::Create(8, std::vector<uint32_t>(128, 255)).ok());
}

// A sketch of other parameters is refused with a reason, never compared.
TEST(MinHashSketchTest, SketchesOfOtherParametersAreNotCompared) {
  MinHashSketch a = RandomSketch(128, 16, 7);
  for (const MinHashSketch& b : {RandomSketch(64, 16, 7), RandomSketch(128, 8, 7)}) {
    StatusOr<double> j = EstimateJaccard(a, b);
    ASSERT_FALSE(j.ok());
    EXPECT_EQ(j.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(MinHashSketchTest, EstimateCountsEqualSlots) {
  MinHashSketch a = RandomSketch(128, 32, 8);
  std::vector<uint32_t> values(a.values().begin(), a.values().end());
  for (int i = 0; i < 32; ++i) values[static_cast<size_t>(i)] ^= 1;  // 96 of 128 still agree
  MinHashSketch b = MinHashSketch::Create(32, values).value();
  EXPECT_NEAR(EstimateJaccard(a, b).value(), 0.75, 1e-6);
  EXPECT_EQ(EstimateJaccard(a, a).value(), 1.0);
}

}  // namespace
}  // namespace pagesieve::fingerprint
