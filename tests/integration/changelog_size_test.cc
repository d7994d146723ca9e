// The changelog of a long run holds what the TTLs keep alive, not every
// entry ever written (docs/changelog.md, "Expired entries leave the
// changelog too"). A stream spanning many TTLs of event time runs through
// the daemon; the changelog topic is then read back and compacted the way
// Kafka's log cleaner does it (latest record per key, tombstones dropped).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "daemon_fixture.h"
#include "store/changelog.h"
#include "store/shard_db.h"

namespace pagesieve::testing {
namespace {

using std::chrono::seconds;

constexpr int64_t kStart = 1790812800000;  // 2026-10-01
constexpr int64_t kStepMs = 120'000;       // one event every two minutes
constexpr int64_t kTtlMs = 3600'000;       // every store's TTL
constexpr char kShortTtls[] = "[url]\nttl = \"1h\"\n[exact]\nttl = \"1h\"\n[near]\nttl = \"1h\"\n";

// Entries per column family in the compacted view of one changelog
// partition.
std::map<int, int64_t> CompactedEntries(const std::vector<TestMessage>& records) {
  std::map<std::string, const TestMessage*> latest;
  for (const TestMessage& m : records) latest[m.key.value_or("")] = &m;
  std::map<int, int64_t> n;
  for (const auto& [key, m] : latest) {
    if (m->value.empty()) continue;  // a tombstone: entries always have a value
    StatusOr<store::ChangelogKey> k = store::DecodeChangelogKey(key);
    EXPECT_TRUE(k.ok()) << k.status().ToString();
    if (k.ok() && k->entry()) ++n[k->column_family];
  }
  return n;
}

// Input records of one partition whose event time is within `window` of the
// partition's latest: every live entry was last seen by one of them.
int64_t RecordsWithin(const std::vector<TestMessage>& records, int64_t window) {
  int64_t watermark = 0;
  std::vector<int64_t> times;
  for (const TestMessage& m : records) {
    times.push_back(Json::parse(m.value)["fetched_at"].get<int64_t>());
    watermark = std::max(watermark, times.back());
  }
  return std::count_if(times.begin(), times.end(),
                       [&](int64_t t) { return t >= watermark - window; });
}

TEST_F(DaemonTest, TheChangelogOfALongRunHoldsWhatTheTtlsKeepAlive) {
  // A real stream, one event every two minutes: about ten hours of event time against
  // one-hour TTLs.
  std::vector<TestMessage> stream = LabelledStream({.seed = 37, .articles = 30, .sites = 60});
  for (size_t i = 0; i < stream.size(); ++i) {
    Json event = Json::parse(stream[i].value);
    event["fetched_at"] = kStart + static_cast<int64_t>(i) * kStepMs;
    stream[i].value = event.dump();
  }
  ASSERT_GT(static_cast<int64_t>(stream.size()) * kStepMs, 8 * kTtlMs);
  const std::string group = "group-" + input_;
  const std::string one = WriteConfig("one", group, dir_.File("state-one"), kShortTtls);
  const std::string two = WriteConfig("two", group, dir_.File("state-two"), kShortTtls);

  // The first two thirds in waves, as a live crawl arrives, each wave once
  // the last one's verdicts are out (so in checkpoints of its own); then a
  // clean stop.
  const size_t cut = stream.size() * 2 / 3;
  constexpr size_t kWaves = 6;
  DaemonProcess first(one, dir_.File("one.log"));
  first.Start();
  for (size_t w = 0; w < kWaves; ++w) {
    const size_t from = cut * w / kWaves, to = cut * (w + 1) / kWaves;
    ASSERT_TRUE(Produce(input_, std::vector<TestMessage>(stream.begin() + static_cast<long>(from),
                                                         stream.begin() + static_cast<long>(to)))
                    .ok());
    ReadPublished(to);
  }
  ASSERT_EQ(first.Terminate(), 0) << first.Log();

  int64_t written_urls = 0, kept_urls = 0;
  for (int p = 0; p < kPartitions; ++p) {
    StatusOr<std::vector<TestMessage>> input = ReadPartition(input_, p);
    StatusOr<std::vector<TestMessage>> changelog = ReadPartition(group + "-state-changelog", p);
    ASSERT_TRUE(input.ok() && changelog.ok());
    std::map<int64_t, int64_t> written;  // every entry ever shipped, by family
    for (const TestMessage& m : *changelog) {
      StatusOr<store::ChangelogKey> k = store::DecodeChangelogKey(m.key.value_or(""));
      if (k.ok() && k->entry() && !m.value.empty()) ++written[k->column_family];
    }
    const std::map<int, int64_t> kept = CompactedEntries(*changelog);
    auto at = [](const auto& m, int cf) { return m.count(cf) ? m.at(cf) : int64_t{0}; };
    // Every live entry was last seen by a record of the last TTL.
    const int64_t recent = RecordsWithin(*input, kTtlMs);
    EXPECT_LE(at(kept, store::kUrlCf), recent) << "partition " << p;
    EXPECT_LE(at(kept, store::kExactCf), recent) << "partition " << p;
    EXPECT_LE(at(kept, store::kNearCf), recent) << "partition " << p;
    written_urls += at(written, store::kUrlCf);
    kept_urls += at(kept, store::kUrlCf);
  }
  // The bound means something: most of what was written has expired.
  EXPECT_GT(kept_urls, 0);
  EXPECT_LT(kept_urls * 4, written_urls) << kept_urls << " of " << written_urls;
  std::cout << "URL entries: " << written_urls << " shipped, " << kept_urls
            << " left after compaction\n";

  // What the changelog kept is all a fresh disk needs: the rest of the
  // stream gets the verdicts of one run that never stopped, TTLs included.
  ASSERT_TRUE(Produce(input_, std::vector<TestMessage>(stream.begin() + cut, stream.end())).ok());
  DaemonProcess second(two, dir_.File("two.log"));
  second.Start();
  Published published = ReadPublished(stream.size());
  EXPECT_EQ(second.Terminate(), 0) << second.Log();
  ExpectPublishedEquals(published, ExpectVerdicts(one));
  EXPECT_THAT(second.Log(), ::testing::HasSubstr("restored shard"));
}

}  // namespace
}  // namespace pagesieve::testing
