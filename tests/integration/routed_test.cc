// Global dedup routed by fingerprint on a real broker (docs/global-routing.md):
// with scope.key = "global" and scope.routing = "fingerprint", the route,
// URL, content and near stages spread one scope's state over the partitions
// of their internal topics. Whatever the number of those partitions and of
// instances, and with instances killed and restarted, every record's
// verdict must be the one pagesieve dedup gives over the same records
// sorted in the routed order (event time, then input partition and offset),
// and no owner partition may hold much more than its share of the entries.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <set>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "daemon_fixture.h"
#include "daemon_group.h"
#include "store/changelog.h"
#include "store/keys.h"
#include "wait_until.h"

namespace pagesieve::testing {
namespace {

using std::chrono::seconds;

struct RoutedCase {
  int partitions;  // of each internal topic
  int instances;
  int kills;  // SIGKILLs of a running instance, each restarted on its disk
  // No flush records: the floors rise because the input partitions are
  // idle (routing.idle_timeout), as on a live crawl that goes quiet.
  bool idle_lift = false;
};

std::string Name(const ::testing::TestParamInfo<RoutedCase>& info) {
  return std::to_string(info.param.partitions) + "Partitions" +
         std::to_string(info.param.instances) + "Instances" + std::to_string(info.param.kills) +
         "Kills" + (info.param.idle_lift ? "IdleLift" : "");
}

class RoutedTest : public DaemonTest, public ::testing::WithParamInterface<RoutedCase> {
 protected:
  static constexpr int64_t kHourMs = 3'600'000;

  // Every input record but the flush records (which stay undecided:
  // nothing comes after them), in the routed order: by event time, then
  // partition and offset. Records that are not events (dead letters) come
  // first; their place does not matter.
  std::vector<TestMessage> ReadInOrder() const {
    std::vector<std::pair<std::tuple<int64_t, int32_t, int64_t>, TestMessage>> all;
    for (int p = 0; p < kPartitions; ++p) {
      StatusOr<std::vector<TestMessage>> records = ReadPartition(input_, p);
      EXPECT_TRUE(records.ok()) << records.status().ToString();
      if (!records.ok()) continue;
      for (const TestMessage& m : *records) {
        if (m.key == "flush") continue;
        const Json event = Json::parse(m.value, nullptr, /*allow_exceptions=*/false);
        const int64_t t = event.is_object() && event.contains("fetched_at")
                              ? event["fetched_at"].get<int64_t>()
                              : INT64_MIN;
        all.emplace_back(std::make_tuple(t, m.partition, m.offset), m);
      }
    }
    std::sort(all.begin(), all.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<TestMessage> ordered;
    for (auto& [key, m] : all) ordered.push_back(std::move(m));
    return ordered;
  }

  // The entries (URL, exact or near keys) each partition of an owner
  // stage's changelog holds now: the latest record of each key, tombstones
  // left out.
  std::vector<std::set<std::string>> EntriesPerPartition(const std::string& changelog,
                                                         int partitions) const {
    std::vector<std::set<std::string>> out;
    for (int32_t p = 0; p < partitions; ++p) {
      StatusOr<std::vector<TestMessage>> records = ReadPartition(changelog, p);
      EXPECT_TRUE(records.ok()) << records.status().ToString();
      std::map<std::string, bool> live;
      for (const TestMessage& m : records.ok() ? *records : std::vector<TestMessage>{}) {
        StatusOr<store::ChangelogKey> key = store::DecodeChangelogKey(m.key.value_or(""));
        // URL, exact and near entries (not the metadata, not filter pages).
        if (!key.ok() || !key->entry() || key->column_family < 1 || key->column_family > 3) {
          continue;
        }
        live[std::string(key->key)] = !m.value.empty();
      }
      std::set<std::string> entries;
      for (const auto& [k, present] : live) {
        if (present) entries.insert(k);
      }
      out.push_back(std::move(entries));
    }
    return out;
  }

  // Two copies of one page on input partition 0, the copy appended first
  // with the later event time (an input partition's event times may go
  // back within max_lateness): in the routed order the later offset comes
  // first and is the original.
  std::vector<TestMessage> BackwardsInOnePartition(int64_t after_ms) const {
    std::string text;
    for (int i = 0; i < 120; ++i) text += " backwards" + std::to_string((i * 37) % 101);
    std::vector<TestMessage> out;
    for (const auto& [name, minutes] : {std::pair<std::string, int64_t>{"later", 10},
                                        std::pair<std::string, int64_t>{"earlier", 5}}) {
      TestMessage m;
      m.partition = 0;
      m.key = "backwards.example";
      m.value = Json{{"url", "https://backwards.example/" + name},
                     {"event_id", "backwards-" + name},
                     {"fetched_at", after_ms + minutes * 60'000},
                     {"status", 200},
                     {"text", text}}
                    .dump();
      out.push_back(std::move(m));
    }
    return out;
  }

  // One flush event per input partition, a day after everything else: it
  // lifts each partition's floor past every record (docs/global-routing.md,
  // "Bounded lateness"), as the live crawl's later pages would.
  std::vector<TestMessage> FlushRecords(int64_t after_ms) const {
    std::vector<TestMessage> flush;
    for (int p = 0; p < kPartitions; ++p) {
      TestMessage m;
      m.partition = p;
      m.key = "flush";
      m.value = Json{{"url", "https://flush.example/p" + std::to_string(p)},
                     {"fetched_at", after_ms + 24 * kHourMs},
                     {"status", 200},
                     {"content_type", "text/html"},
                     {"body", "<html><body><p>flush " + std::to_string(p) + "</p></body></html>"}}
                    .dump();
      flush.push_back(std::move(m));
    }
    return flush;
  }
};

TEST_P(RoutedTest, VerdictsEqualDedupInEventTimeOrderWhateverThePartitionsAndInstances) {
  const RoutedCase c = GetParam();
  std::vector<TestMessage> stream =
      LabelledStream({.seed = 11, .articles = 15, .sites = 25, .bad_records = 3});
  int64_t last_ms = 0;
  for (const TestMessage& m : stream) {
    const Json event = Json::parse(m.value, nullptr, false);
    if (event.is_object() && event.contains("fetched_at")) {
      last_ms = std::max(last_ms, event["fetched_at"].get<int64_t>());
    }
  }
  const std::string group = "routed-" + input_;
  const std::string extra =
      "threads = 1\n"
      "[processing]\nguarantee = \"exactly_once\"\ntransaction_timeout = \"20s\"\n"
      "[scope]\nkey = \"global\"\nrouting = \"fingerprint\"\n"
      "[routing]\npartitions = " +
      std::to_string(c.partitions) + "\nmax_lateness = \"1h\"\n" +
      "idle_timeout = \"" + (c.idle_lift ? "2s" : "0s") + "\"\n";
  std::vector<std::string> configs;
  for (int i = 0; i < c.instances; ++i) {
    configs.push_back(WriteConfig("i" + std::to_string(i), group,
                                  dir_.File("state-" + std::to_string(i)), extra));
  }
  std::mt19937 rng(20261128 + c.partitions);
  Group instances(dir_, configs);
  for (int i = 0; i < c.instances; ++i) instances.Start(static_cast<size_t>(i));

  // Half the stream, kills while it moves through the stages, the rest and
  // the flush records, and the rest of the kills.
  const size_t half = stream.size() / 2;
  ASSERT_TRUE(Produce(input_, {stream.begin(), stream.begin() + static_cast<long>(half)}).ok());
  int kills = 0;
  // Each kill lands once the run has published a few more messages than
  // now (skipped verdicts and dead letters come at once, the others as the
  // floors pass them), or after 30 s: in the middle of work.
  auto kill_one = [&] {
    const int64_t target = PublishedCount() + 1 + static_cast<int64_t>(rng() % 30);
    WaitUntil([&] { return PublishedCount() >= target; }, seconds(30));
    const size_t victim = instances.Pick(rng);
    instances.At(victim)->Kill();
    instances.Start(victim);
    ++kills;
  };
  for (; kills < c.kills / 2;) kill_one();
  ASSERT_TRUE(Produce(input_, {stream.begin() + static_cast<long>(half), stream.end()}).ok());
  ASSERT_TRUE(Produce(input_, BackwardsInOnePartition(last_ms), /*to_partitions=*/true).ok());
  if (!c.idle_lift) {
    ASSERT_TRUE(Produce(input_, FlushRecords(last_ms + 10 * 60'000), /*to_partitions=*/true).ok());
  }
  while (kills < c.kills) kill_one();

  const Expected expected = DedupOver(configs[0], ReadInOrder(), "ordered");
  const Published published = ReadPublished(expected.verdicts.size() + expected.dead_letters.size());
  for (size_t i : instances.Running()) {
    EXPECT_EQ(instances.At(i)->Terminate(), 0) << instances.Logs();
  }
  ExpectPublishedEquals(published, expected);
  size_t repeated = 0;
  for (const auto& [id, copies] : published.verdicts) repeated += copies.size() > 1;
  EXPECT_EQ(repeated, 0u);

  // The URL and content owners hold each entry in one partition: none holds
  // more than about twice its share. A near entry is whole at its home only
  // (its incarnations, under the longer home keys); the other partitions
  // that own one of its keys (4 SimHash tables, 33 LSH bands) keep a slim
  // row, so below 37 partitions most partitions hold a row of most entries:
  // the rows are reported, the whole entries held to about 2/N
  // (docs/global-routing.md, "What a partition holds").
  std::string spread;
  for (const char* stage : {"url", "content", "near"}) {
    const std::vector<std::set<std::string>> held =
        EntriesPerPartition(group + "-" + stage + "-state-changelog", c.partitions);
    std::set<std::string> distinct;
    size_t most = 0;
    for (const std::set<std::string>& entries : held) {
      distinct.insert(entries.begin(), entries.end());
      most = std::max(most, entries.size());
    }
    EXPECT_GT(distinct.size(), 0u) << stage;
    spread += std::string(" ") + stage + " " + std::to_string(most) + "/" +
              std::to_string(distinct.size());
    if (std::string(stage) == "near") {
      std::set<std::string> whole;
      size_t most_whole = 0;
      for (const std::set<std::string>& entries : held) {
        size_t here = 0;
        for (const std::string& k : entries) {
          if (k.size() != store::kHomeEntryKeySize) continue;
          whole.insert(k);
          ++here;
        }
        most_whole = std::max(most_whole, here);
      }
      spread += " (whole " + std::to_string(most_whole) + "/" + std::to_string(whole.size()) + ")";
      EXPECT_GT(whole.size(), 0u);
      EXPECT_LE(most_whole, 2 * whole.size() / static_cast<size_t>(c.partitions) + 4);
      continue;
    }
    if (c.partitions == 1) continue;
    EXPECT_LE(most, 2 * distinct.size() / static_cast<size_t>(c.partitions) + 4) << stage;
  }
  std::cout << c.partitions << " partitions, " << c.instances << " instances, " << kills
            << " kills: " << expected.verdicts.size() << " verdicts, "
            << expected.dead_letters.size() << " dead letters, "
            << instances.CountInLogs("transaction aborted")
            << " transactions aborted; most entries in one partition, of all:" << spread << "\n";
  if (HasFailure()) std::cout << instances.Logs();
}

INSTANTIATE_TEST_SUITE_P(Cases, RoutedTest,
                         ::testing::Values(RoutedCase{1, 1, 0}, RoutedCase{2, 2, 0},
                                           RoutedCase{4, 3, 2}, RoutedCase{8, 2, 2},
                                           RoutedCase{2, 1, 0, /*idle_lift=*/true}),
                         Name);

}  // namespace
}  // namespace pagesieve::testing
