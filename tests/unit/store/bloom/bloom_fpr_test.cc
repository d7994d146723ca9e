// The false-positive rate measured against its target, in the manner of
// LevelDB's util/bloom_test.cc: fill filters to their design load, probe
// with keys never inserted, and hold the measured rate to the configured one.
// Filters are filled in the worst phase of the generation cycle: all G + 1
// slots hold a full generation's share (the oldest one about to expire).

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <tuple>

#include "bloom_test_util.h"
#include "store/bloom/time_decayed_bloom.h"

namespace pagesieve::store {
namespace {

using testing::At;
using testing::kBaseMs;
using testing::KeyStream;

struct Measurement {
  double rate = 0;
  double design = 0;
  uint64_t inserted = 0;
  size_t bit_bytes = 0;
};

// Inserts expected_items / G keys in each of G + 1 consecutive generations,
// ending on the last millisecond of the newest, then probes.
Measurement FillAndProbe(const BloomOptions& o, uint64_t queries, uint64_t seed) {
  auto created = TimeDecayedBloom::Create(o);
  EXPECT_TRUE(created.ok()) << created.status().ToString();
  auto& bloom = *created;
  const int64_t width = bloom->geometry().generation_width.count();
  const int64_t first = (kBaseMs / width) * width;
  const uint64_t per_generation = bloom->geometry().keys_per_generation;
  KeyStream keys(seed);
  Measurement m;
  for (int g = 0; g <= o.generations; ++g) {
    for (uint64_t i = 0; i < per_generation; ++i) {
      const int64_t offset = static_cast<int64_t>(i * width / per_generation);
      bloom->Insert(keys.Next(), At(first + g * width + offset));
      ++m.inserted;
    }
  }
  bloom->AdvanceWatermark(At(first + (o.generations + 1) * width - 1));
  EXPECT_EQ(bloom->live_generations(), o.generations + 1);
  KeyStream absent(seed ^ 0xABCDEF);
  uint64_t hits = 0;
  for (uint64_t i = 0; i < queries; ++i) hits += bloom->MayContain(absent.Next());
  m.rate = static_cast<double>(hits) / static_cast<double>(queries);
  m.design = bloom->geometry().DesignFalsePositiveRate();
  m.bit_bytes = bloom->geometry().bit_bytes();
  return m;
}

TEST(BloomFprTest, MillionKeysMeasureAtOrBelowTheConfiguredRate) {
  BloomOptions o;
  o.expected_items = 1'000'000;
  o.false_positive_rate = 0.01;
  o.generations = 4;
  const Measurement m = FillAndProbe(o, 1'000'000, 1);
  EXPECT_EQ(m.inserted, 1'250'000u);
  EXPECT_LE(m.rate, o.false_positive_rate);
  // The filter is not oversized to pass: it lands where the formula says.
  const double sigma = std::sqrt(m.design / 1e6);
  EXPECT_NEAR(m.rate, m.design, 5 * sigma + 0.01 * m.design);
}

// Many sizes, rates and generation counts. Small filters round up to whole
// pages and land well under target; each must be under its rate, allowing
// only the probe count's sampling noise (four standard deviations).
class BloomFprSweepTest : public ::testing::TestWithParam<std::tuple<uint64_t, double, int>> {};

TEST_P(BloomFprSweepTest, MeasuredRateIsAtOrBelowTheConfiguredRate) {
  const auto [items, rate, generations] = GetParam();
  BloomOptions o;
  o.expected_items = items;
  o.false_positive_rate = rate;
  o.generations = generations;
  o.page_bytes = 256;
  const uint64_t queries = static_cast<uint64_t>(std::min(400.0 / rate, 200'000.0));
  const Measurement m = FillAndProbe(o, queries, items * 31 + generations);
  const double sigma = std::sqrt(rate / static_cast<double>(queries));
  EXPECT_LE(m.rate, rate + 4 * sigma) << "design " << m.design;
}

INSTANTIATE_TEST_SUITE_P(Sizes, BloomFprSweepTest,
                         ::testing::Combine(::testing::Values(1'000, 100'000),
                                            ::testing::Values(0.05, 0.01, 0.001),
                                            ::testing::Values(1, 3, 8)));

}  // namespace
}  // namespace pagesieve::store
