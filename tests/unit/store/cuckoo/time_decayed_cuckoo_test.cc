#include "store/cuckoo/time_decayed_cuckoo.h"

#include <gtest/gtest.h>

#include "cuckoo_test_util.h"

namespace pagesieve::store {
namespace {

using testing::At;
using testing::kBaseMs;
using testing::kHour;
using testing::Keys;
using testing::SevenHourOptions;

std::unique_ptr<TimeDecayedCuckoo> NewFilter(uint64_t items) {
  auto f = TimeDecayedCuckoo::Create(SevenHourOptions(items));
  EXPECT_TRUE(f.ok()) << f.status().ToString();
  return std::move(*f);
}

TEST(TimeDecayedCuckooTest, RefusesMoreGenerationsThanItsTagsName) {
  BloomOptions o = SevenHourOptions(1000);
  o.generations = 8;
  EXPECT_FALSE(TimeDecayedCuckoo::Create(o).ok());
}

TEST(TimeDecayedCuckooTest, EveryLiveKeyIsReportedAcrossGenerations) {
  auto f = NewFilter(100'000);
  const auto keys = Keys(1, 100'000);
  // Spread over the 7 h TTL: every generation gets its share.
  for (size_t i = 0; i < keys.size(); ++i) {
    f->Insert(keys[i], At(kBaseMs + static_cast<int64_t>(i) * 7 * kHour / 100'000));
  }
  for (uint64_t k : keys) ASSERT_TRUE(f->MayContain(k));
  EXPECT_EQ(f->stashed(), 0u);
  // A key whose fingerprint is already live in its buckets shares that slot
  // (about rate / 2 of the keys): fewer entries than keys, never more.
  EXPECT_LE(f->live_entries(), keys.size());
  EXPECT_GT(f->live_entries(), keys.size() * 99 / 100);
}

TEST(TimeDecayedCuckooTest, KeyIsLiveUntilItsGenerationEndsPastTheTtl) {
  auto f = NewFilter(1000);
  const int64_t t = kBaseMs + 10 * kHour + 123;  // inside generation [10 h, 11 h)
  f->Insert(42, At(t));
  f->AdvanceWatermark(At(t + 7 * kHour));  // exactly ttl later: live
  EXPECT_TRUE(f->MayContain(42));
  f->AdvanceWatermark(At(kBaseMs + 11 * kHour + 7 * kHour - 1));  // its generation still overlaps
  EXPECT_TRUE(f->MayContain(42));
  f->AdvanceWatermark(At(kBaseMs + 11 * kHour + 7 * kHour));  // wholly expired
  EXPECT_FALSE(f->MayContain(42));
  EXPECT_EQ(f->live_entries(), 0u);
}

TEST(TimeDecayedCuckooTest, ReinsertKeepsAKeyAliveForAnotherTtl) {
  auto f = NewFilter(1000);
  f->Insert(7, At(kBaseMs));
  f->Insert(7, At(kBaseMs + 6 * kHour));
  f->AdvanceWatermark(At(kBaseMs + 13 * kHour));
  EXPECT_TRUE(f->MayContain(7));
  EXPECT_EQ(f->live_entries(), 1u);  // refreshed in place, not stored twice
  f->AdvanceWatermark(At(kBaseMs + 14 * kHour));
  EXPECT_FALSE(f->MayContain(7));
}

TEST(TimeDecayedCuckooTest, LateInsertIsIgnoredAndCounted) {
  auto f = NewFilter(1000);
  f->AdvanceWatermark(At(kBaseMs + 20 * kHour));
  f->Insert(9, At(kBaseMs + 13 * kHour - 1));
  EXPECT_FALSE(f->MayContain(9));
  EXPECT_EQ(f->late_inserts(), 1u);
  f->Insert(10, At(kBaseMs + 13 * kHour));  // exactly ttl behind: still live
  EXPECT_TRUE(f->MayContain(10));
}

TEST(TimeDecayedCuckooTest, EarlyInsertRaisesTheWatermark) {
  auto f = NewFilter(1000);
  f->Insert(1, At(kBaseMs + 5 * kHour));
  EXPECT_EQ(ToMillis(f->watermark()), kBaseMs + 5 * kHour);
}

// Tags are generations modulo 8: rotating through many TTLs must never let
// an expired key come back under a live generation with the same tag.
TEST(TimeDecayedCuckooTest, ExpiredKeysStayExpiredAsTagsComeRound) {
  auto f = NewFilter(70'000);
  const int kGenerations = 40;
  const size_t per_gen = 10'000;
  const auto keys = Keys(2, per_gen * kGenerations);
  for (int g = 0; g < kGenerations; ++g) {
    for (size_t i = 0; i < per_gen; ++i) {
      f->Insert(keys[g * per_gen + i], At(kBaseMs + g * kHour + static_cast<int64_t>(i)));
    }
    // Keys of generations that wholly expired answer only as false positives.
    size_t expired = 0, reported = 0;
    for (int old = 0; old + 8 <= g; ++old) {
      for (size_t i = 0; i < per_gen; i += 10) {
        ++expired;
        reported += f->MayContain(keys[old * per_gen + i]);
      }
    }
    if (expired > 0) {
      EXPECT_LT(static_cast<double>(reported) / static_cast<double>(expired), 0.02)
          << "generation " << g;
    }
    for (int live = std::max(0, g - 6); live <= g; ++live) {
      for (size_t i = 0; i < per_gen; ++i) ASSERT_TRUE(f->MayContain(keys[live * per_gen + i]));
    }
  }
  EXPECT_GT(f->sweeps(), 30u);
}

TEST(TimeDecayedCuckooTest, FarJumpExpiresEverything) {
  auto f = NewFilter(10'000);
  const auto keys = Keys(3, 10'000);
  for (uint64_t k : keys) f->Insert(k, At(kBaseMs));
  f->AdvanceWatermark(At(kBaseMs + 1'000'000'000'000'000));
  for (uint64_t k : keys) ASSERT_FALSE(f->MayContain(k));
  EXPECT_EQ(f->live_entries(), 0u);
}

// Ten times its design load in one generation: the table fills, and what
// cannot be placed waits in the stash instead of being dropped.
TEST(TimeDecayedCuckooTest, OverfullTableLosesNoLiveKey) {
  auto f = NewFilter(1000);
  const auto keys = Keys(4, 10'000);
  for (uint64_t k : keys) f->Insert(k, At(kBaseMs));
  for (uint64_t k : keys) ASSERT_TRUE(f->MayContain(k));
  EXPECT_GT(f->stashed(), 0u);
  EXPECT_GT(f->FillRatio(), 0.99);
}

TEST(TimeDecayedCuckooTest, StashDrainsOnceExpiryFreesRoom) {
  auto f = NewFilter(1000);
  const auto old_keys = Keys(5, 1500);
  for (uint64_t k : old_keys) f->Insert(k, At(kBaseMs));
  const auto new_keys = Keys(6, 300);
  for (uint64_t k : new_keys) f->Insert(k, At(kBaseMs + 2 * kHour));
  ASSERT_GT(f->stashed(), 0u);
  f->AdvanceWatermark(At(kBaseMs + 8 * kHour));  // the first generation expires
  for (uint64_t k : new_keys) ASSERT_TRUE(f->MayContain(k));
  EXPECT_EQ(f->stashed(), 0u);
}

TEST(TimeDecayedCuckooTest, DesignLoadFillsWithoutStashing) {
  // The peak the table is sized for: G + 1 generations holding their share.
  const uint64_t items = 200'000;
  auto f = NewFilter(items);
  const uint64_t peak = f->geometry().keys_per_generation * 8;
  const auto keys = Keys(7, peak);
  for (size_t i = 0; i < keys.size(); ++i) {
    f->Insert(keys[i], At(kBaseMs + static_cast<int64_t>(i / f->geometry().keys_per_generation) *
                                        kHour));
  }
  EXPECT_EQ(f->stashed(), 0u);
  EXPECT_GT(f->FillRatio(), 0.9);
}

}  // namespace
}  // namespace pagesieve::store
