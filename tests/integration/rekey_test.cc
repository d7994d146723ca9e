// Re-keying by scope (docs/rekey.md): an input topic that is not partitioned
// by scope (keyed by URL, or not keyed at all) goes through the re-keying
// stage and the repartition topic, and each page must get the verdict it gets
// when the same events are keyed by scope: pagesieve dedup's over each
// scope's pages in order.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "daemon_fixture.h"

namespace pagesieve::testing {
namespace {

using ::testing::HasSubstr;
using std::chrono::seconds;

constexpr char kRekeyed[] = "[input]\npartitioned_by = \"url\"\n";

// What pagesieve dedup says over the whole stream in order. Scopes never
// match each other, so this is also what it says over any partitioning by
// scope.
std::map<std::string, Json> DedupVerdicts(const std::vector<TestMessage>& stream,
                                          const std::string& config, const TempDir& dir) {
  std::string jsonl;
  for (const TestMessage& m : stream) jsonl += m.value + "\n";
  const std::string in = dir.File("stream.jsonl");
  WriteFile(in, jsonl);
  ProcessResult r = RunPagesieve({"dedup", "-q", "--config", config, "-i", in});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, Json> verdicts;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    Json v = Json::parse(line);
    verdicts[v["event_id"]] = v;
  }
  return verdicts;
}

TEST_F(DaemonTest, AnInputKeyedByUrlGetsTheVerdictsOfTheSameEventsKeyedByScope) {
  const std::vector<TestMessage> stream = LabelledStream({.seed = 23});
  const std::string config =
      WriteConfig("run", "group-" + input_, dir_.File("state"), kRekeyed);
  // The same events keyed by URL: a site's pages spread over every input
  // partition. They are produced in waves, each with at most one page of a
  // site, the next wave only once the last one has its verdicts, so each
  // site's pages reach the repartition topic in stream order however the
  // partitions interleave (docs/rekey.md, "Order").
  std::vector<std::vector<TestMessage>> waves;
  std::map<std::string, size_t> seen;  // pages of each site so far
  for (const TestMessage& m : stream) {
    const size_t wave = seen[*m.key]++;
    if (waves.size() <= wave) waves.resize(wave + 1);
    TestMessage by_url = m;
    by_url.key = Json::parse(m.value)["url"].get<std::string>();
    waves[wave].push_back(by_url);
  }
  ASSERT_GE(waves.size(), 3u);

  DaemonProcess daemon(config, dir_.File("run.log"));
  daemon.Start();
  ASSERT_TRUE(daemon.WaitForLog("assigned", seconds(60))) << daemon.Log();
  size_t produced = 0;
  Published published;
  for (const std::vector<TestMessage>& wave : waves) {
    ASSERT_TRUE(Produce(input_, wave).ok());
    produced += wave.size();
    published = ReadPublished(produced);
    ASSERT_EQ(published.verdicts.size(), produced) << daemon.Log();
  }
  EXPECT_EQ(daemon.Terminate(), 0) << daemon.Log();
  EXPECT_THAT(daemon.Log(), HasSubstr("creating repartition topic group-" + input_ + "-repartition"));

  Expected expected;
  expected.verdicts = DedupVerdicts(stream, config, dir_);
  expected.records = stream.size();
  ExpectPublishedEquals(published, expected);
  // The verdict names the record in the input topic, not in the
  // repartition topic.
  std::map<Position, std::string> input_ids;
  for (int p = 0; p < kPartitions; ++p) {
    StatusOr<std::vector<TestMessage>> records = ReadPartition(input_, p);
    ASSERT_TRUE(records.ok()) << records.status().ToString();
    for (const TestMessage& m : *records) {
      input_ids[{p, m.offset}] = Json::parse(m.value)["event_id"].get<std::string>();
    }
  }
  for (const auto& [id, copies] : published.verdicts) {
    const Json& source = copies.front()["source"];
    EXPECT_EQ(source["topic"], input_) << id;
    const Position at(source["partition"].get<int32_t>(), source["offset"].get<int64_t>());
    EXPECT_EQ(input_ids[at], id);
  }
}

TEST_F(DaemonTest, AnUnkeyedInputIsReKeyedAndABackfillStopsWhenBothStagesAreDone) {
  // Unkeyed records, each site on one partition (not the one its scope hashes
  // to): per-partition dedup is the reference, and bad records must come out
  // as dead letters naming their input position.
  std::vector<TestMessage> stream = LabelledStream({.seed = 29, .bad_records = 4});
  std::map<std::string, int32_t> partition_of;
  for (TestMessage& m : stream) {
    m.partition = partition_of.emplace(*m.key, partition_of.size() % kPartitions).first->second;
    m.key.reset();
  }
  ASSERT_TRUE(Produce(input_, stream, /*to_partitions=*/true).ok());
  const std::string config = WriteConfig(
      "run", "group-" + input_, dir_.File("state"),
      std::string(kRekeyed) + "repartition_partitions = 3\n");

  ProcessResult r = RunPagesieve({"run", "--config", config, "--from", "earliest", "--until", "end"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("backfill complete"));
  EXPECT_THAT(r.err, HasSubstr("re-keying stage: consuming " + input_));

  Published published = ReadPublished(stream.size());
  ExpectPublishedEquals(published, ExpectVerdicts(config));
  // Verdicts are published under the input record's key: none here, not the
  // scope the repartition topic is keyed by.
  for (int32_t p = 0; p < 2; ++p) {
    StatusOr<std::vector<TestMessage>> unique = ReadPartition(unique_, p);
    ASSERT_TRUE(unique.ok()) << unique.status().ToString();
    for (const TestMessage& m : *unique) EXPECT_EQ(m.key, std::nullopt) << m.value;
  }
  StatusOr<int64_t> repartitioned = MessageCount("group-" + input_ + "-repartition");
  ASSERT_TRUE(repartitioned.ok()) << repartitioned.status().ToString();
  EXPECT_EQ(*repartitioned, static_cast<int64_t>(stream.size()) - 4);  // all but the bad ones
}

}  // namespace
}  // namespace pagesieve::testing
