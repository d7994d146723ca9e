// Rebuilds beside the shard's thread (TimeDecayedFuse::AllowBackgroundRebuilds):
// no false negative while one runs, and the same filter as a rebuild on the
// shard's thread once it is installed.
#include <gtest/gtest.h>

#include <vector>

#include "common/split_mix64.h"
#include "fuse_test_util.h"
#include "store/fuse/time_decayed_fuse.h"

namespace pagesieve::store {
namespace {

using testing::EightHourOptions;
using testing::FusePages;
using testing::At;
using testing::kHourMs;

struct Inserted {
  uint64_t key;
  int64_t ms;
};

// Ten hours of keys, 400 an hour, checkpointing every 97 inserts; the
// watermark enters a new generation each hour.
std::vector<Inserted> Fill(TimeDecayedFuse& f, FusePages& pages, uint64_t seed, int hours = 10) {
  SplitMix64Stream keys(seed);
  std::vector<Inserted> out;
  for (int64_t t = 0; t < hours * kHourMs; t += kHourMs / 400) {
    out.push_back({keys.Next(), t});
    f.Insert(out.back().key, At(t));
    if (out.size() % 97 == 0) pages.Checkpoint(f);
  }
  return out;
}

TEST(TimeDecayedFuseBackgroundTest, EveryLiveKeyAnswersWhileARebuildRuns) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  f->AllowBackgroundRebuilds();
  std::vector<Inserted> keys = Fill(*f, pages, 11);
  ASSERT_TRUE(f->FinishRebuild().ok());
  // Entering generation 10 seals generation 9 and starts a rebuild; the
  // inserts after it, at the watermark, install nothing.
  const int64_t now = 10 * kHourMs;
  f->AdvanceWatermark(At(now));
  ASSERT_TRUE(f->rebuilding());
  SplitMix64Stream more(12);
  for (int i = 0; i < 300; ++i) {
    keys.push_back({more.Next(), now - (i % 3) * kHourMs});  // the open and two sealed ones
    f->Insert(keys.back().key, At(keys.back().ms));
  }
  pages.Checkpoint(*f);
  ASSERT_TRUE(f->rebuilding());
  for (const Inserted& k : keys) {
    if (k.ms >= now - 8 * kHourMs) {
      ASSERT_TRUE(f->MayContain(k.key)) << k.ms;
    }
  }
  ASSERT_TRUE(f->FinishRebuild().ok());
  EXPECT_FALSE(f->rebuilding());
  for (const Inserted& k : keys) {
    if (k.ms >= now - 8 * kHourMs) {
      ASSERT_TRUE(f->MayContain(k.key)) << k.ms;
    }
  }
}

// The filter a background rebuild installs is the one a rebuild on the
// shard's thread makes: the same header and the same answers.
TEST(TimeDecayedFuseBackgroundTest, InstallsTheFilterARebuildOnTheShardsThreadMakes) {
  FusePages in_line_pages;
  FusePages background_pages;
  auto in_line = in_line_pages.Create(EightHourOptions(8'000));
  auto background = background_pages.Create(EightHourOptions(8'000));
  background->AllowBackgroundRebuilds();
  Fill(*in_line, in_line_pages, 13, 12);
  Fill(*background, background_pages, 13, 12);
  ASSERT_TRUE(background->FinishRebuild().ok());
  EXPECT_EQ(background->rebuilds(), in_line->rebuilds());
  EXPECT_EQ(background->EncodeHeader(), in_line->EncodeHeader());
  SplitMix64Stream probes(14);
  for (int i = 0; i < 200'000; ++i) {
    const uint64_t k = probes.Next();
    ASSERT_EQ(background->MayContain(k), in_line->MayContain(k));
  }
}

// A generation that passes while a rebuild runs (a backfill moves event
// time fast) waits for it, then rebuilds again: nothing is lost and the
// expired generation stops answering.
TEST(TimeDecayedFuseBackgroundTest, AGenerationPassingDuringARebuildWaitsForIt) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  f->AllowBackgroundRebuilds();
  std::vector<Inserted> keys = Fill(*f, pages, 15);
  f->AdvanceWatermark(At(10 * kHourMs));
  f->AdvanceWatermark(At(11 * kHourMs));
  f->AdvanceWatermark(At(12 * kHourMs));
  ASSERT_TRUE(f->FinishRebuild().ok());
  const int64_t now = 12 * kHourMs;
  int expired_hits = 0;
  int expired = 0;
  for (const Inserted& k : keys) {
    if (k.ms >= now - 8 * kHourMs) {
      ASSERT_TRUE(f->MayContain(k.key)) << k.ms;
    } else if (k.ms < 3 * kHourMs) {  // generations 0-2, wholly expired
      ++expired;
      expired_hits += f->MayContain(k.key);
    }
  }
  EXPECT_LE(expired_hits, expired / 50);  // false positives only (about 1 %)
}

// A checkpoint taken while a rebuild runs holds the filter as it was; the
// filter restored from it rebuilds again and loses nothing.
TEST(TimeDecayedFuseBackgroundTest, ACheckpointDuringARebuildRestoresAndRebuildsAgain) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  f->AllowBackgroundRebuilds();
  std::vector<Inserted> keys = Fill(*f, pages, 17);
  f->AdvanceWatermark(At(10 * kHourMs));
  ASSERT_TRUE(f->rebuilding());
  SplitMix64Stream more(18);
  for (int i = 0; i < 100; ++i) {
    keys.push_back({more.Next(), 10 * kHourMs});
    f->Insert(keys.back().key, At(10 * kHourMs));
  }
  pages.Checkpoint(*f);
  ASSERT_TRUE(f->FinishRebuild().ok());
  auto restored = pages.Reopen();
  restored->AllowBackgroundRebuilds();
  restored->AdvanceWatermark(At(10 * kHourMs));
  ASSERT_TRUE(restored->FinishRebuild().ok());
  for (const Inserted& k : keys) {
    if (k.ms >= 2 * kHourMs) {
      ASSERT_TRUE(restored->MayContain(k.key)) << k.ms;
    }
  }
}

// A rebuild that cannot read its logs fails when it is installed: the
// filter then answers "maybe" for everything, as a rebuild on the shard's
// thread does.
TEST(TimeDecayedFuseBackgroundTest, ARebuildThatCannotReadItsLogsFailsWhenInstalled) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(8'000));
  f->AllowBackgroundRebuilds();
  Fill(*f, pages, 19);
  ASSERT_TRUE(f->FinishRebuild().ok());
  {
    std::lock_guard<std::mutex> lock(pages.mu);
    pages.pages.erase(fuse::LogPageId(/*slot=*/5, /*chunk=*/0));
  }
  f->AdvanceWatermark(At(10 * kHourMs));
  const Status s = f->FinishRebuild();
  EXPECT_EQ(s.code(), StatusCode::kNotFound) << s.ToString();
  EXPECT_TRUE(f->MayContain(0x1234));
}

}  // namespace
}  // namespace pagesieve::store
