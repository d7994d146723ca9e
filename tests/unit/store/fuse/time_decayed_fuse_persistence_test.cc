#include <gtest/gtest.h>

#include <vector>

#include "common/split_mix64.h"
#include "fuse_test_util.h"
#include "store/fuse/fuse_format.h"
#include "store/fuse/time_decayed_fuse.h"

namespace pagesieve::store {
namespace {

using testing::EightHourOptions;
using testing::FusePages;
using testing::At;
using testing::kHourMs;

void ExpectSameAnswers(const TimeDecayedFuse& a, const TimeDecayedFuse& b) {
  SplitMix64Stream probe(1);  // the fill's keys first, then absent ones
  for (int i = 0; i < 200'000; ++i) {
    const uint64_t k = probe.Next();
    ASSERT_EQ(a.MayContain(k), b.MayContain(k)) << i;
  }
  EXPECT_EQ(a.sealed_keys(), b.sealed_keys());
  EXPECT_EQ(a.EstimatedFalsePositiveRate(), b.EstimatedFalsePositiveRate());
}

void Fill(TimeDecayedFuse& f, FusePages& pages, int64_t until_ms) {
  SplitMix64Stream keys(1);
  int n = 0;
  for (int64_t t = 0; t < until_ms; t += kHourMs / 2000) {
    f.Insert(keys.Next(), At(t));
    if (++n % 700 == 0) pages.Checkpoint(f);
  }
  pages.Checkpoint(f);
}

TEST(TimeDecayedFusePersistenceTest, RestoredFromItsPagesItAnswersAsBefore) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(16'000));
  Fill(*f, pages, 13 * kHourMs + kHourMs / 3);
  auto back = pages.Reopen();
  ExpectSameAnswers(*f, *back);
}

// After a restore the next seal reads the key logs back from the store.
TEST(TimeDecayedFusePersistenceTest, ARestoredFilterSealsFromItsStoredKeyLogs) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(16'000));
  Fill(*f, pages, 13 * kHourMs + kHourMs / 3);
  auto back = pages.Reopen();
  f->AdvanceWatermark(At(15 * kHourMs));
  back->AdvanceWatermark(At(15 * kHourMs));
  ASSERT_TRUE(back->status().ok()) << back->status().ToString();
  EXPECT_GE(back->rebuilds(), 1u);
  ExpectSameAnswers(*f, *back);
}

TEST(TimeDecayedFusePersistenceTest, StalePagesOfAnEarlierBuildAreIgnored) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(16'000));
  Fill(*f, pages, 3 * kHourMs + 10);
  const auto old_pages = pages.pages;
  f->AdvanceWatermark(At(5 * kHourMs));  // a rebuild: a new build stamp
  pages.Checkpoint(*f);
  for (const auto& [id, bytes] : old_pages) {
    if (id < fuse::kOpenPageBase && !pages.pages.contains(id)) pages.pages[id] = bytes;
  }
  auto back = pages.Reopen();
  ExpectSameAnswers(*f, *back);
}

TEST(TimeDecayedFusePersistenceTest, AnotherFormatVersionIsRefusedWithResetAdvice) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(16'000));
  std::string header = f->EncodeHeader();
  header[8] = 2;  // the version follows the 8-byte magic
  auto back = TimeDecayedFuse::Restore(header);
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(back.status().message().find("reset the shard"), std::string::npos);
}

TEST(TimeDecayedFusePersistenceTest, CorruptOrForeignInputIsRefused) {
  FusePages pages;
  auto f = pages.Create(EightHourOptions(16'000));
  Fill(*f, pages, 2 * kHourMs);
  std::string header = f->EncodeHeader();
  for (size_t i = 12; i < header.size(); i += 7) {
    std::string bad = header;
    bad[i] ^= 0x10;
    EXPECT_FALSE(TimeDecayedFuse::Restore(bad).ok()) << i;
  }
  EXPECT_FALSE(TimeDecayedFuse::Restore(header.substr(0, header.size() - 1)).ok());
  EXPECT_FALSE(TimeDecayedFuse::Restore("PSBLOOM").ok());
  auto other = TimeDecayedFuse::Create(EightHourOptions(17'000));
  ASSERT_TRUE(other.ok());
  const auto& [id, bytes] = *pages.pages.begin();
  EXPECT_EQ((*other)->LoadPage(id, bytes).code(), StatusCode::kCorruption);
  auto back = pages.Reopen();
  EXPECT_EQ(back->LoadPage(id + 1, bytes).code(), StatusCode::kCorruption);
  EXPECT_FALSE(back->LoadPage(id, bytes.substr(0, 20)).ok());
}

}  // namespace
}  // namespace pagesieve::store
