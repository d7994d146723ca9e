#include "store/bloom/time_decayed_bloom.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "bloom_test_util.h"
#include "store/bloom/generations.h"

namespace pagesieve::store {
namespace {

using testing::At;
using testing::kBaseMs;
using testing::KeyStream;

using testing::kHour;

BloomOptions SmallOptions(uint64_t items = 10'000) { return testing::FourHourOptions(items); }

std::unique_ptr<TimeDecayedBloom> Make(const BloomOptions& o = SmallOptions()) {
  auto bloom = TimeDecayedBloom::Create(o);
  EXPECT_TRUE(bloom.ok()) << bloom.status().ToString();
  return std::move(bloom).value();
}

// The start of the generation holding kBaseMs, so tests can place events
// at exact offsets inside a generation.
int64_t GenerationStart(int64_t ms) { return bloom::FloorDiv(ms, kHour) * kHour; }

TEST(TimeDecayedBloomTest, EmptyFilterReportsNothing) {
  auto bloom = Make();
  KeyStream keys(7);
  for (int i = 0; i < 10'000; ++i) EXPECT_FALSE(bloom->MayContain(keys.Next()));
  EXPECT_EQ(bloom->live_generations(), 0);
  EXPECT_EQ(bloom->FillRatio(), 0.0);
  EXPECT_EQ(bloom->EstimatedFalsePositiveRate(), 0.0);
}

TEST(TimeDecayedBloomTest, EveryInsertedKeyIsReported) {
  auto bloom = Make();
  KeyStream keys(1);
  std::vector<uint64_t> inserted;
  for (int i = 0; i < 20'000; ++i) {
    inserted.push_back(keys.Next());
    bloom->Insert(inserted.back(), At(kBaseMs + i * 500));  // spans ~3 h
  }
  for (uint64_t k : inserted) ASSERT_TRUE(bloom->MayContain(k));
}

TEST(TimeDecayedBloomTest, KeyIsStillLiveAtExactlyTtlAfterItsInsert) {
  auto bloom = Make();
  const int64_t t = GenerationStart(kBaseMs) + 1234;
  bloom->Insert(42, At(t));
  bloom->AdvanceWatermark(At(t + 4 * kHour));
  EXPECT_TRUE(bloom->MayContain(42));
}

// A generation answers until it is wholly older than watermark - ttl: the
// key inserted anywhere in [start, end) answers up to end + ttl - 1 ms.
TEST(TimeDecayedBloomTest, KeyStopsAnsweringWhenItsGenerationWhollyExpires) {
  for (int64_t offset : {int64_t{0}, 1234 * int64_t{1000}, kHour - 1}) {
    auto bloom = Make();
    const int64_t start = GenerationStart(kBaseMs);
    bloom->Insert(42, At(start + offset));
    bloom->AdvanceWatermark(At(start + kHour + 4 * kHour - 1));
    EXPECT_TRUE(bloom->MayContain(42)) << offset;
    bloom->AdvanceWatermark(At(start + kHour + 4 * kHour));
    EXPECT_FALSE(bloom->MayContain(42)) << offset;
    EXPECT_EQ(bloom->live_generations(), 0);
  }
}

TEST(TimeDecayedBloomTest, KeyIsForgottenWithinTtlPlusOneGenerationWidth) {
  KeyStream times(3);
  for (int i = 0; i < 20; ++i) {
    auto bloom = Make();
    const int64_t t = kBaseMs + static_cast<int64_t>(times.Next() % (10 * kHour));
    bloom->Insert(99, At(t));
    bloom->AdvanceWatermark(At(t + 4 * kHour + kHour));
    EXPECT_FALSE(bloom->MayContain(99)) << t;
  }
}

TEST(TimeDecayedBloomTest, InsertAlreadyExpiredAtTheWatermarkIsIgnored) {
  auto bloom = Make();
  bloom->AdvanceWatermark(At(kBaseMs));
  bloom->Insert(1, At(kBaseMs - 4 * kHour - 1));
  EXPECT_FALSE(bloom->MayContain(1));
  EXPECT_EQ(bloom->late_inserts(), 1u);
  bloom->Insert(2, At(kBaseMs - 4 * kHour));
  EXPECT_TRUE(bloom->MayContain(2));
  EXPECT_EQ(bloom->late_inserts(), 1u);
}

// A late event still live goes to the generation of its own time, so it
// expires with that generation, before keys inserted at the watermark.
TEST(TimeDecayedBloomTest, LateLiveInsertExpiresWithItsOwnGeneration) {
  auto bloom = Make();
  const int64_t now = GenerationStart(kBaseMs) + kHour / 2;
  bloom->AdvanceWatermark(At(now));
  bloom->Insert(1, At(now - 3 * kHour));  // three generations back
  bloom->Insert(2, At(now));
  bloom->AdvanceWatermark(At(now + 2 * kHour));
  EXPECT_FALSE(bloom->MayContain(1));
  EXPECT_TRUE(bloom->MayContain(2));
}

TEST(TimeDecayedBloomTest, InsertAfterTheWatermarkRaisesIt) {
  auto bloom = Make();
  bloom->AdvanceWatermark(At(kBaseMs));
  bloom->Insert(5, At(kBaseMs + 10 * kHour));
  EXPECT_EQ(bloom->watermark(), At(kBaseMs + 10 * kHour));
  EXPECT_TRUE(bloom->MayContain(5));
}

TEST(TimeDecayedBloomTest, WatermarkNeverMovesBack) {
  auto bloom = Make();
  bloom->Insert(5, At(kBaseMs));
  bloom->AdvanceWatermark(At(kBaseMs - 100 * kHour));
  EXPECT_EQ(bloom->watermark(), At(kBaseMs));
  EXPECT_TRUE(bloom->MayContain(5));
}

TEST(TimeDecayedBloomTest, ReinsertingAKeyExtendsItsLife) {
  auto bloom = Make();
  const int64_t start = GenerationStart(kBaseMs);
  bloom->Insert(8, At(start));
  bloom->Insert(8, At(start + 3 * kHour));
  bloom->AdvanceWatermark(At(start + 7 * kHour));
  EXPECT_TRUE(bloom->MayContain(8));
}

// With 1 ms generations a loop over elapsed generations would take 10^15
// steps; the jump must cost one pass over the slots.
TEST(TimeDecayedBloomTest, JumpFarAheadClearsEverythingInOnePass) {
  BloomOptions o = SmallOptions();
  o.ttl = Duration(4);
  auto bloom = Make(o);
  KeyStream keys(11);
  for (int i = 0; i < 100; ++i) bloom->Insert(keys.Next(), At(kBaseMs + i % 4));
  ASSERT_GT(bloom->live_generations(), 0);
  bloom->AdvanceWatermark(At(kBaseMs + 1'000'000'000'000'000));
  EXPECT_EQ(bloom->live_generations(), 0);
  KeyStream again(11);
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(bloom->MayContain(again.Next()));
}

// A timeline over three TTLs: each hour brings a new batch of keys. At every
// step the live batches answer in full and expired ones only as often as
// keys never inserted do.
TEST(TimeDecayedBloomTest, RotationKeepsExactlyTheLiveGenerations) {
  auto bloom = Make(SmallOptions(4'000));
  const int64_t start = GenerationStart(kBaseMs);
  std::vector<std::vector<uint64_t>> batches;
  KeyStream keys(5);
  for (int hour = 0; hour < 12; ++hour) {
    batches.emplace_back();
    for (int i = 0; i < 1000; ++i) {
      batches.back().push_back(keys.Next());
      bloom->Insert(batches.back().back(), At(start + hour * kHour + i * 3000));
    }
    EXPECT_LE(bloom->live_generations(), 5);
    for (int b = 0; b <= hour; ++b) {
      int reported = 0;
      for (uint64_t k : batches[b]) reported += bloom->MayContain(k);
      if (hour - b <= 4) {
        EXPECT_EQ(reported, 1000) << "hour " << hour << " batch " << b;
      } else {
        EXPECT_LE(reported, 30) << "hour " << hour << " batch " << b;  // rate 1 %: ~10
      }
    }
  }
}

TEST(TimeDecayedBloomTest, MemoryDoesNotGrowWithRotations) {
  auto bloom = Make();
  const size_t before = bloom->MemoryBytes();
  KeyStream keys(9);
  for (int64_t i = 0; i < 100'000; ++i) bloom->Insert(keys.Next(), At(kBaseMs + i * 60'000));
  EXPECT_EQ(bloom->MemoryBytes(), before);
  EXPECT_GE(before, bloom->geometry().bit_bytes());
}

TEST(TimeDecayedBloomTest, DuplicateInsertsDoNotRaiseTheEstimate) {
  auto bloom = Make();
  KeyStream keys(4);
  std::vector<uint64_t> k;
  for (int i = 0; i < 2000; ++i) k.push_back(keys.Next());
  for (uint64_t key : k) bloom->Insert(key, At(kBaseMs));
  const double fill = bloom->FillRatio();
  const double estimate = bloom->EstimatedFalsePositiveRate();
  EXPECT_GT(fill, 0.0);
  for (uint64_t key : k) bloom->Insert(key, At(kBaseMs));
  EXPECT_EQ(bloom->FillRatio(), fill);
  EXPECT_EQ(bloom->EstimatedFalsePositiveRate(), estimate);
}

// Filled evenly to its design load, the estimate from fill agrees with the
// rate measured on keys never inserted, and both stay under the target.
TEST(TimeDecayedBloomTest, EstimatedRateTracksMeasuredRate) {
  auto bloom = Make(SmallOptions(40'000));
  const int64_t start = GenerationStart(kBaseMs);
  KeyStream keys(21);
  for (int i = 0; i < 50'000; ++i) bloom->Insert(keys.Next(), At(start + i * 360));  // 5 h
  KeyStream absent(22);
  int hits = 0;
  constexpr int kQueries = 200'000;
  for (int i = 0; i < kQueries; ++i) hits += bloom->MayContain(absent.Next());
  const double measured = static_cast<double>(hits) / kQueries;
  EXPECT_NEAR(bloom->EstimatedFalsePositiveRate(), measured, 0.15 * measured);
  EXPECT_LE(bloom->EstimatedFalsePositiveRate(), 0.01);
}

// Event times come from records; hostile ones must not overflow anything
// (UBSan would say) and must keep the filter consistent.
TEST(TimeDecayedBloomTest, ExtremeEventTimesAreHandled) {
  auto bloom = Make();
  bloom->Insert(1, At(INT64_MIN));
  EXPECT_EQ(bloom->late_inserts(), 1u);
  bloom->Insert(2, At(INT64_MAX));
  EXPECT_TRUE(bloom->MayContain(2));
  EXPECT_EQ(bloom->watermark(), At(INT64_MAX));
  bloom->Insert(3, At(kBaseMs));  // now hopelessly late
  EXPECT_EQ(bloom->late_inserts(), 2u);
  auto restored = TimeDecayedBloom::Restore(bloom->EncodeHeader());
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_EQ((*restored)->watermark(), At(INT64_MAX));
}

TEST(TimeDecayedBloomTest, CreateRejectsBadOptions) {
  BloomOptions o = SmallOptions();
  o.generations = 0;
  EXPECT_EQ(TimeDecayedBloom::Create(o).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pagesieve::store
