#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bloom_test_util.h"
#include "store/bloom/bloom_format.h"
#include "store/bloom/time_decayed_bloom.h"

namespace pagesieve::store {
namespace {

using testing::At;
using testing::kBaseMs;
using testing::KeyStream;

using testing::kHour;

// What the shard keeps in RocksDB: the last header and the last bytes
// written under each page id.
struct Persisted {
  std::string header;
  std::map<uint32_t, std::string> pages;
  size_t last_pages_written = 0;

  void Checkpoint(TimeDecayedBloom& bloom) {
    header = bloom.EncodeHeader();
    last_pages_written = 0;
    bloom.ForEachDirtyPage([&](uint32_t id, std::string_view bytes) {
      pages[id] = std::string(bytes);
      ++last_pages_written;
    });
    bloom.ClearDirty();
  }

  std::unique_ptr<TimeDecayedBloom> Reopen() const {
    auto bloom = TimeDecayedBloom::Restore(header);
    EXPECT_TRUE(bloom.ok()) << bloom.status().ToString();
    for (const auto& [id, bytes] : pages) {
      Status s = (*bloom)->LoadPage(id, bytes);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
    return std::move(bloom).value();
  }
};

BloomOptions Options() { return testing::FourHourOptions(20'000, 256); }

std::unique_ptr<TimeDecayedBloom> Make(const BloomOptions& o = Options()) {
  return std::move(TimeDecayedBloom::Create(o)).value();
}

// Same answers for every key in a sample, inserted or not.
void ExpectSameAnswers(const TimeDecayedBloom& a, const TimeDecayedBloom& b, uint64_t seed) {
  KeyStream keys(seed);
  for (int i = 0; i < 50'000; ++i) {
    const uint64_t k = keys.Next();
    ASSERT_EQ(a.MayContain(k), b.MayContain(k)) << i;
  }
  EXPECT_EQ(a.FillRatio(), b.FillRatio());
  EXPECT_EQ(a.watermark(), b.watermark());
}

// Inserts `count` keys of stream `seed` spread over [from, from + span).
void InsertSpread(TimeDecayedBloom& bloom, uint64_t seed, int count, int64_t from, int64_t span) {
  KeyStream keys(seed);
  for (int i = 0; i < count; ++i) bloom.Insert(keys.Next(), At(from + span * i / count));
}

TEST(BloomPersistenceTest, RestoredFilterGivesTheSameAnswers) {
  auto bloom = Make();
  InsertSpread(*bloom, 1, 15'000, kBaseMs, 3 * kHour);
  Persisted store;
  store.Checkpoint(*bloom);
  auto reopened = store.Reopen();
  EXPECT_EQ(reopened->options().expected_items, 20'000u);
  EXPECT_EQ(reopened->geometry(), bloom->geometry());
  ExpectSameAnswers(*bloom, *reopened, 1);  // stream 1: the inserted keys
  ExpectSameAnswers(*bloom, *reopened, 2);
}

TEST(BloomPersistenceTest, OneInsertDirtiesOnePage) {
  auto bloom = Make();
  InsertSpread(*bloom, 1, 1000, kBaseMs, kHour);
  bloom->ClearDirty();
  EXPECT_EQ(bloom->DirtyPageCount(), 0u);
  bloom->Insert(12345, At(kBaseMs + kHour));
  EXPECT_EQ(bloom->DirtyPageCount(), 1u);
  bloom->Insert(12345, At(kBaseMs + kHour));
  EXPECT_EQ(bloom->DirtyPageCount(), 1u);
  int calls = 0;
  bloom->ForEachDirtyPage([&](uint32_t, std::string_view bytes) {
    ++calls;
    EXPECT_EQ(bytes.size(), bloom::kPagePrefixBytes + 256);
  });
  EXPECT_EQ(calls, 1);
}

// Checkpoints interleaved with rotations: the last header plus the latest
// bytes of every page ever written rebuild the live filter exactly.
TEST(BloomPersistenceTest, IncrementalCheckpointsRebuildTheFilter) {
  auto bloom = Make();
  Persisted store;
  for (int step = 0; step < 40; ++step) {
    InsertSpread(*bloom, 100 + step, 500, kBaseMs + step * kHour / 4, kHour / 4);
    store.Checkpoint(*bloom);
  }
  auto reopened = store.Reopen();
  ExpectSameAnswers(*bloom, *reopened, 100 + 39);
  ExpectSameAnswers(*bloom, *reopened, 7);
  EXPECT_EQ(reopened->DirtyPageCount(), 0u);
}

// Clearing an expired generation writes nothing, and the pages it left in
// storage must not bring its keys back.
TEST(BloomPersistenceTest, StalePagesOfAnExpiredGenerationStayDead) {
  auto bloom = Make();
  Persisted store;
  const int64_t start = (kBaseMs / kHour) * kHour;
  InsertSpread(*bloom, 1, 2000, start, kHour / 2);
  store.Checkpoint(*bloom);
  bloom->AdvanceWatermark(At(start + 5 * kHour));  // the generation expires
  EXPECT_EQ(bloom->DirtyPageCount(), 0u);
  store.Checkpoint(*bloom);
  EXPECT_EQ(store.last_pages_written, 0u);
  auto reopened = store.Reopen();
  EXPECT_EQ(reopened->live_generations(), 0);
  KeyStream keys(1);
  for (int i = 0; i < 2000; ++i) EXPECT_FALSE(reopened->MayContain(keys.Next()));
}

// The slot of an expired generation is reused by a newer one; pages the
// newer one never touched still hold the old generation's bits on disk.
TEST(BloomPersistenceTest, ReusedSlotIgnoresPagesOfItsPreviousGeneration) {
  auto bloom = Make();
  Persisted store;
  const int64_t start = (kBaseMs / kHour) * kHour;
  InsertSpread(*bloom, 1, 4000, start, kHour / 2);  // generation g, slot g % 5
  store.Checkpoint(*bloom);
  bloom->Insert(777, At(start + 5 * kHour));  // generation g + 5: same slot
  store.Checkpoint(*bloom);
  EXPECT_EQ(store.last_pages_written, 1u);
  auto reopened = store.Reopen();
  EXPECT_TRUE(reopened->MayContain(777));
  ExpectSameAnswers(*bloom, *reopened, 1);
}

TEST(BloomPersistenceTest, RestoredFilterKeepsWorking) {
  auto bloom = Make();
  Persisted store;
  InsertSpread(*bloom, 1, 3000, kBaseMs, kHour);
  store.Checkpoint(*bloom);
  auto reopened = store.Reopen();
  InsertSpread(*bloom, 2, 3000, kBaseMs + kHour, kHour);
  InsertSpread(*reopened, 2, 3000, kBaseMs + kHour, kHour);
  EXPECT_EQ(reopened->DirtyPageCount(), bloom->DirtyPageCount());
  ExpectSameAnswers(*bloom, *reopened, 2);
}

}  // namespace
}  // namespace pagesieve::store
