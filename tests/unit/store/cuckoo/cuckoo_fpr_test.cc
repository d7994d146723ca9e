// The false-positive rate, measured the LevelDB way: fill, probe keys never
// inserted, and hold the count to the bound and to the design.
#include <gtest/gtest.h>

#include <cmath>

#include "cuckoo_test_util.h"
#include "store/cuckoo/time_decayed_cuckoo.h"

namespace pagesieve::store {
namespace {

using testing::At;
using testing::kBaseMs;
using testing::kHour;
using testing::KeyStream;
using testing::SevenHourOptions;

struct Measured {
  double rate = 0;
  double estimated = 0;
  uint64_t probes = 0;
};

// Fills the worst phase (G + 1 generations holding their share each, just
// before the oldest expires) and probes `probes` fresh keys.
Measured MeasureAtPeak(const BloomOptions& o, uint64_t probes, uint64_t seed) {
  auto f = TimeDecayedCuckoo::Create(o);
  EXPECT_TRUE(f.ok());
  const uint64_t per_gen = (*f)->geometry().keys_per_generation;
  const int64_t width = (*f)->geometry().generation_width.count();
  KeyStream keys(seed);
  for (int g = 0; g <= o.generations; ++g) {
    for (uint64_t i = 0; i < per_gen; ++i) (*f)->Insert(keys.Next(), At(kBaseMs + g * width));
  }
  EXPECT_EQ((*f)->live_generations(), o.generations + 1);
  KeyStream absent(seed ^ 0xABCDEF);
  uint64_t hits = 0;
  for (uint64_t i = 0; i < probes; ++i) hits += (*f)->MayContain(absent.Next());
  return {static_cast<double>(hits) / static_cast<double>(probes),
          (*f)->EstimatedFalsePositiveRate(), probes};
}

double Sigma(double p, uint64_t n) { return std::sqrt(p * (1 - p) / static_cast<double>(n)); }

TEST(CuckooFprTest, MillionKeysAtOnePercentMeasureUnderTheBound) {
  const Measured m = MeasureAtPeak(SevenHourOptions(1'000'000), 1'000'000, 11);
  EXPECT_LE(m.rate, 0.01);
  // Within 5 sigma of what the filter estimates from its load.
  EXPECT_NEAR(m.rate, m.estimated, 5 * Sigma(m.estimated, m.probes));
}

TEST(CuckooFprTest, SweepOfSizesAndRatesStaysUnderEachBound) {
  for (uint64_t items : {1'000ull, 10'000ull, 100'000ull}) {
    for (double rate : {0.05, 0.01, 0.001}) {
      BloomOptions o = SevenHourOptions(items);
      o.false_positive_rate = rate;
      const uint64_t probes = 400'000;
      const Measured m = MeasureAtPeak(o, probes, items + 17);
      // One-sided: measured no more than 5 sigma over the configured rate.
      EXPECT_LE(m.rate, rate + 5 * Sigma(rate, probes)) << items << " items at " << rate;
    }
  }
}

}  // namespace
}  // namespace pagesieve::store
