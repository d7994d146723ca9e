#include "store/cuckoo/cuckoo_format.h"

#include <gtest/gtest.h>

#include "cuckoo_test_util.h"
#include "store/cuckoo/cuckoo_geometry.h"

namespace pagesieve::store::cuckoo {
namespace {

CuckooHeader SampleHeader() {
  CuckooHeader h;
  h.options = testing::SevenHourOptions(100'000);
  h.geometry = *ComputeCuckooGeometry(h.options);
  h.watermark_ms = testing::kBaseMs;
  h.stash = {{3, (5u << kTagBits) | 1}, {9, (77u << kTagBits) | 6}};
  return h;
}

TEST(CuckooFormatTest, HeaderRoundTrips) {
  const CuckooHeader h = SampleHeader();
  auto back = DecodeCuckooHeader(EncodeCuckooHeader(h));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->watermark_ms, h.watermark_ms);
  EXPECT_EQ(back->stash, h.stash);
  EXPECT_EQ(back->geometry.buckets, h.geometry.buckets);
  EXPECT_EQ(back->geometry.fingerprint_bits, h.geometry.fingerprint_bits);
  EXPECT_EQ(back->options.expected_items, h.options.expected_items);
}

TEST(CuckooFormatTest, EveryFlippedByteIsRefused) {
  const std::string bytes = EncodeCuckooHeader(SampleHeader());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] ^= 0x10;
    EXPECT_FALSE(DecodeCuckooHeader(bad).ok()) << "byte " << i;
  }
}

TEST(CuckooFormatTest, TruncationsAreRefused) {
  const std::string bytes = EncodeCuckooHeader(SampleHeader());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeCuckooHeader(bytes.substr(0, n)).ok()) << n << " bytes";
  }
}

TEST(CuckooFormatTest, AnotherVersionIsAFailedPrecondition) {
  std::string bytes = EncodeCuckooHeader(SampleHeader());
  bytes[8] = 2;  // the version follows the 8-byte magic
  auto r = DecodeCuckooHeader(bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("reset the shard"), std::string::npos);
}

TEST(CuckooFormatTest, BloomHeaderIsNotTakenForACuckooOne) {
  EXPECT_FALSE(IsCuckooHeader(std::string("PSBLOOM\0rest", 12)));
  EXPECT_TRUE(IsCuckooHeader(EncodeCuckooHeader(SampleHeader())));
}

TEST(CuckooGeometryTest, OnePercentTakesTenBitFingerprintsAndThirteenBitSlots) {
  const CuckooGeometry g = *ComputeCuckooGeometry(testing::SevenHourOptions(10'000'000));
  EXPECT_EQ(g.fingerprint_bits, 10);
  EXPECT_EQ(g.slot_bits(), 13);
  EXPECT_EQ(g.page_bytes(), 52u);  // 8 buckets of 52 bits
  // Bits per expected (live) key: 13 bits per slot, slots for 8/7 of them
  // at 95 % load.
  const double bits_per_key = 8.0 * static_cast<double>(g.table_bytes()) / 10'000'000;
  EXPECT_NEAR(bits_per_key, 13.0 / 0.95 * 8 / 7, 0.05);
}

TEST(CuckooGeometryTest, DesignRateIsUnderTheConfiguredOne) {
  for (double rate : {0.1, 0.01, 0.001, 0.0001}) {
    BloomOptions o = testing::SevenHourOptions(1'000'000);
    o.false_positive_rate = rate;
    const CuckooGeometry g = *ComputeCuckooGeometry(o);
    EXPECT_LE(CuckooFalsePositiveRate(g, g.keys_per_generation * 8), 0.95 * rate) << rate;
    // and one bit fewer would not do
    CuckooGeometry smaller = g;
    --smaller.fingerprint_bits;
    EXPECT_GT(CuckooFalsePositiveRate(smaller, g.keys_per_generation * 8), 0.95 * rate * 0.99)
        << rate;
  }
}

}  // namespace
}  // namespace pagesieve::store::cuckoo
