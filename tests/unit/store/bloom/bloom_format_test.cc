// The persisted form against bad input: truncated, corrupted, foreign and
// inconsistent headers and pages are errors, never crashes or silent loads.

#include "store/bloom/bloom_format.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "bloom_test_util.h"
#include "store/bloom/time_decayed_bloom.h"

namespace pagesieve::store {
namespace {

using testing::At;
using testing::kBaseMs;
using testing::KeyStream;

using testing::kHour;

BloomOptions Options() { return testing::FourHourOptions(5'000); }

std::unique_ptr<TimeDecayedBloom> Filled(const BloomOptions& o = Options()) {
  auto bloom = std::move(TimeDecayedBloom::Create(o)).value();
  KeyStream keys(1);
  for (int i = 0; i < 3000; ++i) bloom->Insert(keys.Next(), At(kBaseMs + i * 1000));
  return bloom;
}

std::string FirstDirtyPage(const TimeDecayedBloom& bloom, uint32_t* id) {
  std::string page;
  bloom.ForEachDirtyPage([&](uint32_t page_id, std::string_view bytes) {
    if (page.empty()) {
      page = std::string(bytes);
      *id = page_id;
    }
  });
  return page;
}

TEST(BloomHeaderTest, RoundTripsEveryField) {
  auto bloom = Filled();
  auto h = bloom::DecodeBloomHeader(bloom->EncodeHeader());
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->options.expected_items, 5'000u);
  EXPECT_EQ(h->options.false_positive_rate, 0.01);
  EXPECT_EQ(h->options.ttl, Duration(4 * kHour));
  EXPECT_EQ(h->geometry, bloom->geometry());
  EXPECT_EQ(h->watermark_ms, ToMillis(bloom->watermark()));
  uint64_t inserts = 0;
  for (const auto& s : h->slots) inserts += s.inserts;
  EXPECT_EQ(inserts, 3000u);
}

TEST(BloomHeaderTest, EveryTruncationIsAnError) {
  const std::string header = Filled()->EncodeHeader();
  for (size_t n = 0; n < header.size(); ++n) {
    EXPECT_FALSE(TimeDecayedBloom::Restore(header.substr(0, n)).ok()) << n;
  }
  EXPECT_FALSE(TimeDecayedBloom::Restore(header + "x").ok());
}

TEST(BloomHeaderTest, EveryFlippedBitIsAnError) {
  const std::string header = Filled()->EncodeHeader();
  for (size_t i = 0; i < header.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = header;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      EXPECT_FALSE(TimeDecayedBloom::Restore(bad).ok()) << i << ":" << bit;
    }
  }
}

TEST(BloomHeaderTest, RandomBytesAreRejected) {
  KeyStream random(5);
  for (int len : {0, 1, 8, 100, 168, 4096}) {
    std::string junk(len, '\0');
    for (char& c : junk) c = static_cast<char>(random.Next());
    EXPECT_FALSE(TimeDecayedBloom::Restore(junk).ok()) << len;
  }
}

TEST(BloomHeaderTest, OtherFormatVersionIsNamed) {
  std::string header = Filled()->EncodeHeader();
  header[8] = 2;  // the version follows the 8-byte magic
  auto restored = TimeDecayedBloom::Restore(header);
  EXPECT_EQ(restored.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(restored.status().message().find("version 2"), std::string::npos);
  EXPECT_NE(restored.status().message().find("reset the shard"), std::string::npos);
}

// A header with a valid checksum around impossible contents (a bug or a
// hostile writer) is still refused.
TEST(BloomHeaderTest, ImpossibleContentsWithValidChecksumAreCorruption) {
  auto bloom = Filled();
  const bloom::BloomHeader good = *bloom::DecodeBloomHeader(bloom->EncodeHeader());
  auto expect_corrupt = [](bloom::BloomHeader h, const char* what) {
    auto decoded = bloom::DecodeBloomHeader(bloom::EncodeBloomHeader(h));
    EXPECT_EQ(decoded.status().code(), StatusCode::kCorruption) << what;
  };
  bloom::BloomHeader h = good;
  h.options.generations = 0;
  expect_corrupt(h, "no generations");
  h = good;
  h.geometry.groups = 0;
  expect_corrupt(h, "no memory");
  h = good;
  h.geometry.num_probes = 99;
  expect_corrupt(h, "too many probes");
  h = good;
  h.watermark_ms = -1;
  expect_corrupt(h, "negative watermark");
  h = good;
  for (auto& s : h.slots) {
    if (s.generation != bloom::kNoGeneration) s.generation += 5;  // later than the watermark
  }
  expect_corrupt(h, "generation from the future");
  h = good;
  h.slots.pop_back();
  expect_corrupt(h, "missing slot");
}

TEST(BloomPageTest, WrongLengthIsCorruption) {
  auto bloom = Filled();
  uint32_t id = 0;
  const std::string page = FirstDirtyPage(*bloom, &id);
  auto target = std::move(TimeDecayedBloom::Restore(bloom->EncodeHeader())).value();
  for (size_t n : {size_t{0}, size_t{15}, page.size() - 1}) {
    EXPECT_EQ(target->LoadPage(id, page.substr(0, n)).code(), StatusCode::kCorruption) << n;
  }
  EXPECT_EQ(target->LoadPage(id, page + "x").code(), StatusCode::kCorruption);
  EXPECT_TRUE(target->LoadPage(id, page).ok());
}

TEST(BloomPageTest, PageOfAFilterWithOtherParametersIsRefused) {
  BloomOptions other = Options();
  other.false_positive_rate = 0.02;
  auto foreign = Filled(other);
  uint32_t id = 0;
  const std::string page = FirstDirtyPage(*foreign, &id);
  auto target = std::move(TimeDecayedBloom::Restore(Filled()->EncodeHeader())).value();
  Status s = target->LoadPage(id, page);
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_NE(s.message().find("other parameters"), std::string::npos) << s.ToString();
}

TEST(BloomPageTest, PageUnderAnotherIdOrBeyondTheLastIsRefused) {
  auto bloom = Filled();
  uint32_t id = 0;
  const std::string page = FirstDirtyPage(*bloom, &id);
  auto target = std::move(TimeDecayedBloom::Restore(bloom->EncodeHeader())).value();
  EXPECT_EQ(target->LoadPage(id + 1, page).code(), StatusCode::kCorruption);
  const auto count = static_cast<uint32_t>(bloom->geometry().page_count());
  EXPECT_EQ(target->LoadPage(count, page).code(), StatusCode::kCorruption);
  EXPECT_EQ(target->LoadPage(UINT32_MAX, page).code(), StatusCode::kCorruption);
}

// Pages and header are written in one atomic batch, so a page can be older
// than its header (stale, ignored) but never newer.
TEST(BloomPageTest, PageNewerThanItsHeaderIsCorruption) {
  auto bloom = Filled();
  const std::string old_header = bloom->EncodeHeader();
  bloom->ClearDirty();
  bloom->Insert(4242, At(kBaseMs + 10 * kHour));  // a generation the old header lacks
  uint32_t id = 0;
  const std::string page = FirstDirtyPage(*bloom, &id);
  auto target = std::move(TimeDecayedBloom::Restore(old_header)).value();
  EXPECT_EQ(target->LoadPage(id, page).code(), StatusCode::kCorruption);
}

TEST(BloomPageTest, StalePageIsIgnored) {
  auto bloom = Filled();
  uint32_t id = 0;
  const std::string page = FirstDirtyPage(*bloom, &id);
  bloom->AdvanceWatermark(At(kBaseMs + 100 * kHour));  // every generation expires
  auto target = std::move(TimeDecayedBloom::Restore(bloom->EncodeHeader())).value();
  EXPECT_TRUE(target->LoadPage(id, page).ok());
  EXPECT_EQ(target->FillRatio(), 0.0);
  EXPECT_EQ(target->live_generations(), 0);
}

TEST(BloomPageTest, RandomBytesOfThePageLengthAreRefused) {
  auto bloom = Filled();
  auto target = std::move(TimeDecayedBloom::Restore(bloom->EncodeHeader())).value();
  KeyStream random(9);
  for (int i = 0; i < 100; ++i) {
    std::string junk(bloom::kPagePrefixBytes + 128, '\0');
    for (char& c : junk) c = static_cast<char>(random.Next());
    EXPECT_FALSE(target->LoadPage(static_cast<uint32_t>(i), junk).ok());
  }
}

}  // namespace
}  // namespace pagesieve::store
