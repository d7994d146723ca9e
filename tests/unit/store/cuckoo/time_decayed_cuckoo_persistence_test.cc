#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cuckoo_test_util.h"
#include "store/cuckoo/time_decayed_cuckoo.h"

namespace pagesieve::store {
namespace {

using testing::At;
using testing::kBaseMs;
using testing::kHour;
using testing::Keys;
using testing::SevenHourOptions;

// What RocksDB would hold: the last header and the last copy of each page.
struct Stored {
  std::string header;
  std::map<uint32_t, std::string> pages;

  void Checkpoint(TimeDecayedCuckoo& f) {
    header = f.EncodeHeader();
    f.ForEachDirtyPage([this](uint32_t id, std::string_view bytes) { pages[id] = bytes; });
    f.ClearDirty();
  }
  std::unique_ptr<TimeDecayedCuckoo> Reopen() const {
    auto f = TimeDecayedCuckoo::Restore(header);
    EXPECT_TRUE(f.ok()) << f.status().ToString();
    for (const auto& [id, bytes] : pages) EXPECT_TRUE((*f)->LoadPage(id, bytes).ok());
    return std::move(*f);
  }
};

void ExpectSameAnswers(const TimeDecayedCuckoo& a, const TimeDecayedCuckoo& b,
                       const std::vector<uint64_t>& keys) {
  for (uint64_t k : keys) ASSERT_EQ(a.MayContain(k), b.MayContain(k)) << k;
  EXPECT_EQ(a.live_entries(), b.live_entries());
  EXPECT_EQ(a.stashed(), b.stashed());
}

TEST(CuckooPersistenceTest, RestoreAnswersAsTheOriginal) {
  auto f = std::move(*TimeDecayedCuckoo::Create(SevenHourOptions(50'000)));
  const auto keys = Keys(1, 50'000);
  for (size_t i = 0; i < keys.size(); ++i) f->Insert(keys[i], At(kBaseMs + i * 500));
  Stored s;
  s.Checkpoint(*f);
  auto back = s.Reopen();
  auto probes = Keys(99, 200'000);
  probes.insert(probes.end(), keys.begin(), keys.end());
  ExpectSameAnswers(*f, *back, probes);
  EXPECT_EQ(back->EncodeHeader(), f->EncodeHeader());
  EXPECT_EQ(back->DirtyPageCount(), 0u);
}

// Expiry empties slots without writing pages: the pages still on disk hold
// expired entries under their old stamp, and loading must drop them, even
// after the tags came round.
TEST(CuckooPersistenceTest, PagesWrittenBeforeExpiryLoadWithoutTheExpired) {
  auto f = std::move(*TimeDecayedCuckoo::Create(SevenHourOptions(20'000)));
  const auto old_keys = Keys(2, 20'000);
  for (uint64_t k : old_keys) f->Insert(k, At(kBaseMs));
  Stored s;
  s.Checkpoint(*f);
  // Ten generations on, only a few new keys: most pages are not rewritten.
  const auto new_keys = Keys(3, 300);
  for (int g = 1; g <= 10; ++g) {
    for (uint64_t k : new_keys) f->Insert(k, At(kBaseMs + g * kHour));
    s.Checkpoint(*f);
  }
  auto back = s.Reopen();
  for (uint64_t k : new_keys) ASSERT_TRUE(back->MayContain(k));
  auto probes = Keys(98, 100'000);
  probes.insert(probes.end(), old_keys.begin(), old_keys.end());
  ExpectSameAnswers(*f, *back, probes);
  EXPECT_EQ(back->live_entries(), new_keys.size());
}

TEST(CuckooPersistenceTest, StashSurvivesARestore) {
  auto f = std::move(*TimeDecayedCuckoo::Create(SevenHourOptions(1000)));
  const auto keys = Keys(4, 5000);
  for (uint64_t k : keys) f->Insert(k, At(kBaseMs));
  ASSERT_GT(f->stashed(), 0u);
  Stored s;
  s.Checkpoint(*f);
  auto back = s.Reopen();
  for (uint64_t k : keys) ASSERT_TRUE(back->MayContain(k));
  EXPECT_EQ(back->stashed(), f->stashed());
}

TEST(CuckooPersistenceTest, ForeignWrongAndFuturePagesAreCorruption) {
  auto a = std::move(*TimeDecayedCuckoo::Create(SevenHourOptions(1000)));
  auto b = std::move(*TimeDecayedCuckoo::Create(SevenHourOptions(2000)));
  a->Insert(1, At(kBaseMs));
  b->Insert(1, At(kBaseMs));
  const std::string header = a->EncodeHeader();
  std::map<uint32_t, std::string> pa, pb;
  a->ForEachDirtyPage([&](uint32_t id, std::string_view bytes) { pa[id] = bytes; });
  b->ForEachDirtyPage([&](uint32_t id, std::string_view bytes) { pb[id] = bytes; });
  auto fresh = std::move(*TimeDecayedCuckoo::Restore(header));
  const auto& [id, page] = *pa.begin();
  EXPECT_FALSE(fresh->LoadPage(id, pb.begin()->second).ok());  // another filter's
  EXPECT_FALSE(fresh->LoadPage(id + 1, page).ok());             // stored under another id
  EXPECT_FALSE(fresh->LoadPage(id, page.substr(1)).ok());        // truncated
  // A page written after a later watermark than its header's.
  a->Insert(2, At(kBaseMs + 3 * kHour));
  std::string future;
  a->ForEachDirtyPage([&](uint32_t, std::string_view bytes) { future = bytes; });
  uint32_t future_id = 0;
  a->ForEachDirtyPage([&](uint32_t i, std::string_view) { future_id = i; });
  EXPECT_FALSE(fresh->LoadPage(future_id, future).ok());
  EXPECT_TRUE(fresh->LoadPage(id, page).ok());
}

}  // namespace
}  // namespace pagesieve::store
