#include "store/fuse/time_decayed_fuse.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/split_mix64.h"
#include "fuse_test_util.h"

namespace pagesieve::store {
namespace {

using testing::EightHourOptions;
using testing::FusePages;
using testing::At;
using testing::kHourMs;

// Fills the worst phase: 8 sealed generations and the open one each holding
// their share, checkpointing every 1,000 inserts as a shard would. Returns
// the keys of each generation.
std::vector<std::vector<uint64_t>> FillWorstPhase(TimeDecayedFuse& f, FusePages& pages,
                                                  uint64_t per_generation) {
  SplitMix64Stream keys(1);
  std::vector<std::vector<uint64_t>> out(9);
  int n = 0;
  for (int g = 0; g < 9; ++g) {
    for (uint64_t i = 0; i < per_generation; ++i) {
      const uint64_t k = keys.Next();
      f.Insert(k, At(g * kHourMs + static_cast<int64_t>(i * kHourMs / per_generation)));
      out[g].push_back(k);
      if (++n % 1000 == 0) pages.Checkpoint(f);
    }
  }
  pages.Checkpoint(f);
  return out;
}

TEST(TimeDecayedFuseTest, MeasuredRateIsUnderTheConfiguredRateAtTheWorstMoment) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(400'000));
  FillWorstPhase(*f, pages, f->geometry().keys_per_generation);
  ASSERT_TRUE(f->status().ok());
  constexpr int kProbes = 1'000'000;
  SplitMix64Stream absent(0xFEED);
  int hits = 0;
  for (int i = 0; i < kProbes; ++i) hits += f->MayContain(absent.Next());
  const double rate = static_cast<double>(hits) / kProbes;
  const double design = f->geometry().DesignFalsePositiveRate();
  EXPECT_LE(rate, 0.01);
  EXPECT_NEAR(rate, design, 5 * std::sqrt(design / kProbes) + 0.0005) << design;
  EXPECT_NEAR(f->EstimatedFalsePositiveRate(), rate, 0.1 * rate);
}

// Issue 22's target, counting everything the filter holds in memory.
TEST(TimeDecayedFuseTest, HoldsAtMostTwelveBitsPerLiveKey) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(1'000'000));
  FillWorstPhase(*f, pages, f->geometry().keys_per_generation);
  const double live = 8.0 * static_cast<double>(f->geometry().keys_per_generation);
  EXPECT_LE(8.0 * static_cast<double>(f->MemoryBytes()) / live, 12.0);
}

TEST(TimeDecayedFuseTest, NoLiveKeyIsLostAcrossSeals) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  SplitMix64Stream keys(5);
  std::vector<std::pair<uint64_t, int64_t>> inserted;
  for (int64_t t = 0; t < 30 * kHourMs; t += kHourMs / 250) {
    const uint64_t k = keys.Next();
    f->Insert(k, At(t));
    inserted.emplace_back(k, t);
    if (inserted.size() % 97 == 0) pages.Checkpoint(*f);
    if (inserted.size() % 500 == 0) {
      for (const auto& [key, when] : inserted) {
        if (when >= t - 8 * kHourMs) {
          ASSERT_TRUE(f->MayContain(key)) << when << " at " << t;
        }
      }
    }
  }
  EXPECT_GE(f->rebuilds(), 29u);
  ASSERT_TRUE(f->status().ok());
}

// A key of generation g stops answering exactly when g has wholly expired:
// at W = (g + 1) * w + ttl; one millisecond before it still answers.
TEST(TimeDecayedFuseTest, ExpiresExactlyWhenItsGenerationEndsAcrossSeals) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  SplitMix64Stream keys(6);
  std::vector<uint64_t> gen2;
  for (int i = 0; i < 1000; ++i) {
    gen2.push_back(keys.Next());
    f->Insert(gen2.back(), At(2 * kHourMs + i));
  }
  pages.Checkpoint(*f);
  const int64_t gone = 3 * kHourMs + 8 * kHourMs;
  f->AdvanceWatermark(At(gone - 1));
  pages.Checkpoint(*f);
  for (uint64_t k : gen2) ASSERT_TRUE(f->MayContain(k));
  f->AdvanceWatermark(At(gone));
  int still = 0;
  for (uint64_t k : gen2) still += f->MayContain(k);
  EXPECT_LE(still, 30);  // false positives only (about 1 %)
}

// An event late by less than the TTL goes to its own generation: found at
// once, and gone when that generation expires, not the open one.
TEST(TimeDecayedFuseTest, LateLiveInsertIsFoundAndExpiresWithItsGeneration) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  f->Insert(1, At(10 * kHourMs));
  SplitMix64Stream keys(7);
  std::vector<uint64_t> late;
  for (int i = 0; i < 500; ++i) {
    late.push_back(keys.Next());
    f->Insert(late.back(), At(3 * kHourMs + i));  // generation 3, sealed
  }
  for (uint64_t k : late) ASSERT_TRUE(f->MayContain(k));
  pages.Checkpoint(*f);
  f->AdvanceWatermark(At(12 * kHourMs - 1));  // generation 3 still live
  for (uint64_t k : late) ASSERT_TRUE(f->MayContain(k));
  f->AdvanceWatermark(At(12 * kHourMs));  // generation 3 expired
  int still = 0;
  for (uint64_t k : late) still += f->MayContain(k);
  EXPECT_LE(still, 20);
  EXPECT_TRUE(f->MayContain(1));
}

TEST(TimeDecayedFuseTest, EventsOlderThanTheTtlAreIgnoredAndCounted) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  f->Insert(1, At(20 * kHourMs));
  f->Insert(2, At(20 * kHourMs - 8 * kHourMs - 1));
  EXPECT_EQ(f->late_inserts(), 1u);
}

TEST(TimeDecayedFuseTest, AnEmptyFilterCrossesAFarJump) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  SplitMix64Stream absent(8);
  for (int i = 0; i < 10'000; ++i) EXPECT_FALSE(f->MayContain(absent.Next()));
  f->AdvanceWatermark(At(int64_t{1} << 60));
  ASSERT_TRUE(f->status().ok());
  EXPECT_EQ(f->sealed_keys(), 0u);
  f->Insert(5, At(int64_t{1} << 60));
  EXPECT_TRUE(f->MayContain(5));
}

TEST(TimeDecayedFuseTest, OneKeySurvivesSealing) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  f->Insert(77, At(kHourMs / 2));
  pages.Checkpoint(*f);
  f->AdvanceWatermark(At(kHourMs));
  EXPECT_EQ(f->sealed_keys(), 1u);
  EXPECT_TRUE(f->MayContain(77));
}

// Far more keys than designed in one generation: nothing lost, and the
// seal folds them all into the static filter.
TEST(TimeDecayedFuseTest, AGenerationOfMillionsOfKeysSealsWithoutLoss) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(80'000));  // 10,000 per generation
  SplitMix64Stream keys(9);
  std::vector<uint64_t> all;
  for (int i = 0; i < 2'000'000; ++i) {
    all.push_back(keys.Next());
    f->Insert(all.back(), At(kHourMs + i % kHourMs));
    if (i % 100'000 == 0) pages.Checkpoint(*f);
  }
  pages.Checkpoint(*f);
  f->AdvanceWatermark(At(2 * kHourMs));
  ASSERT_TRUE(f->status().ok());
  EXPECT_EQ(f->sealed_keys(), 2'000'000u);
  for (uint64_t k : all) ASSERT_TRUE(f->MayContain(k));
}

// A rebuild that cannot read its logs leaves a filter that answers "maybe"
// (never a false negative) and says why.
TEST(TimeDecayedFuseTest, AMissingKeyLogChunkFailsTheRebuildLoudly) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  for (uint64_t k = 1; k <= 100; ++k) f->Insert(k, At(kHourMs / 2));
  pages.Checkpoint(*f);
  pages.pages.erase(fuse::LogPageId(0, 0));
  f->AdvanceWatermark(At(kHourMs));
  EXPECT_FALSE(f->status().ok());
  EXPECT_TRUE(f->MayContain(12345));
}

// A rebuild from the exact entries inserts everything out of order: one
// rebuild at the end instead of one per n_g / 4 late keys.
TEST(TimeDecayedFuseTest, ABulkLoadRebuildsOnceAtTheEnd) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  f->AdvanceWatermark(At(8 * kHourMs + 1));
  const uint64_t before = f->rebuilds();
  f->BeginBulkLoad();
  SplitMix64Stream keys(10);
  std::vector<uint64_t> all;
  for (int i = 0; i < 20'000; ++i) {
    all.push_back(keys.Next());
    f->Insert(all.back(), At(kHourMs + i * 300));
  }
  EXPECT_EQ(f->rebuilds(), before);
  ASSERT_TRUE(f->FinishBulkLoad().ok());
  EXPECT_EQ(f->rebuilds(), before + 1);
  for (uint64_t k : all) ASSERT_TRUE(f->MayContain(k));
}

}  // namespace
}  // namespace pagesieve::store
