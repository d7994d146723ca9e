// Scaling pagesieve run out: instances with their own state directories
// join and leave one consumer group, and the state of each partition follows
// it through the changelog topic (docs/changelog.md). The verdicts must be
// those of one instance that never lost a partition: pagesieve dedup's over
// each input partition.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "daemon_fixture.h"

namespace pagesieve::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using std::chrono::seconds;

std::vector<TestMessage> Slice(const std::vector<TestMessage>& all, size_t from, size_t to) {
  return std::vector<TestMessage>(all.begin() + from, all.begin() + to);
}

TEST_F(DaemonTest, InstancesWithTheirOwnDisksComeAndGoAndTheVerdictsStayTheSame) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 17, .articles = 30, .sites = 60});
  const size_t third = stream.size() / 3;
  const std::string group = "group-" + input_;
  const std::string a_config = WriteConfig("a", group, dir_.File("state-a"));
  const std::string b_config = WriteConfig("b", group, dir_.File("state-b"));
  const std::string c_config = WriteConfig("c", group, dir_.File("state-c"));
  const std::string d_config = WriteConfig("d", group, dir_.File("state-d"));
  DaemonProcess a(a_config, dir_.File("a.log")), b(b_config, dir_.File("b.log")),
      c(c_config, dir_.File("c.log")), d(d_config, dir_.File("d.log"));
  a.Start();
  b.Start();
  c.Start();
  for (DaemonProcess* p : {&a, &b, &c}) ASSERT_TRUE(p->WaitForLog("assigned", seconds(60))) << p->Log();

  ASSERT_TRUE(Produce(input_, Slice(stream, 0, third)).ok());
  ReadPublished(third);
  // One leaves cleanly: its partitions go to the others, whose disks have
  // nothing of them.
  EXPECT_EQ(a.Terminate(), 0) << a.Log();
  ASSERT_TRUE(Produce(input_, Slice(stream, third, 2 * third)).ok());
  ReadPublished(2 * third);
  // One dies: its partitions move once its session times out, and what it
  // decided after its last checkpoint is decided again by their new owner.
  c.Kill();
  // A new instance with an empty disk joins and takes some partitions over.
  d.Start();
  ASSERT_TRUE(d.WaitForLog("assigned", seconds(60))) << d.Log();
  ASSERT_TRUE(Produce(input_, Slice(stream, 2 * third, stream.size())).ok());
  Published published = ReadPublished(stream.size());
  EXPECT_EQ(b.Terminate(), 0) << b.Log();
  EXPECT_EQ(d.Terminate(), 0) << d.Log();

  ExpectPublishedEquals(published, ExpectVerdicts(a_config));
  for (const auto& [id, copies] : published.verdicts) {
    for (const Json& copy : copies) EXPECT_EQ(copy, copies.front()) << id;
  }
  // The moved partitions were restored, not started empty.
  EXPECT_THAT(b.Log() + d.Log(), HasSubstr("restored shard"));
}

TEST_F(DaemonTest, ARestartOnItsOwnDiskUsesTheLocalShardsWithoutRestoring) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 19});
  const size_t half = stream.size() / 2;
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  ASSERT_TRUE(Produce(input_, Slice(stream, 0, half)).ok());
  DaemonProcess first(config, dir_.File("first.log"));
  first.Start();
  ReadPublished(half);
  EXPECT_EQ(first.Terminate(), 0) << first.Log();

  ASSERT_TRUE(Produce(input_, Slice(stream, half, stream.size())).ok());
  DaemonProcess second(config, dir_.File("second.log"));
  second.Start();
  Published published = ReadPublished(stream.size());
  EXPECT_EQ(second.Terminate(), 0) << second.Log();
  ExpectPublishedEquals(published, ExpectVerdicts(config));
  EXPECT_THAT(second.Log(), HasSubstr("(shard checkpoint)"));
  EXPECT_THAT(second.Log(), Not(HasSubstr("restoring shard")));
}

TEST_F(DaemonTest, AFreshDiskAfterEveryRunStillGetsTheSameVerdicts) {
  // The plainest case of state following its partition: each run has an
  // empty state directory and must take everything from the changelog.
  std::vector<TestMessage> stream = LabelledStream({.seed = 23});
  const size_t half = stream.size() / 2;
  const std::string group = "group-" + input_;
  const std::string one = WriteConfig("one", group, dir_.File("state-one"));
  const std::string two = WriteConfig("two", group, dir_.File("state-two"));
  ASSERT_TRUE(Produce(input_, Slice(stream, 0, half)).ok());
  DaemonProcess first(one, dir_.File("one.log"));
  first.Start();
  ReadPublished(half);
  EXPECT_EQ(first.Terminate(), 0) << first.Log();

  ASSERT_TRUE(Produce(input_, Slice(stream, half, stream.size())).ok());
  DaemonProcess second(two, dir_.File("two.log"));
  second.Start();
  Published published = ReadPublished(stream.size());
  EXPECT_EQ(second.Terminate(), 0) << second.Log();
  ExpectPublishedEquals(published, ExpectVerdicts(one));
  for (const auto& [id, copies] : published.verdicts) EXPECT_EQ(copies.size(), 1u) << id;
  EXPECT_THAT(second.Log(), HasSubstr("restored shard"));
}

TEST_F(DaemonTest, AChangelogTopicWithTheWrongPartitionCountStopsStartUp) {
  const std::string group = "group-" + input_;
  ASSERT_TRUE(CreateTopic(group + "-state-changelog", kPartitions - 1).ok());
  const std::string config = WriteConfig("run", group, dir_.File("state"));
  ProcessResult r = RunPagesieve({"run", "--config", config});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("changelog topic '" + group + "-state-changelog' has 3 partitions"));
  EXPECT_THAT(r.err, HasSubstr("(changelog.topic)"));
}

int ShardDirectories(const std::string& state_dir) {
  int n = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(state_dir, ec)) {
    n += entry.is_directory() && std::filesystem::exists(entry.path() / "CURRENT");
  }
  return n;
}

TEST_F(DaemonTest, ARevokedShardIsDeletedOnceItsGracePeriodIsOver) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 29});
  const std::string group = "group-" + input_;
  const std::string a_config = WriteConfig("a", group, dir_.File("state-a"),
                                           "[changelog]\nrevoked_shard_grace = \"0s\"\n");
  const std::string b_config = WriteConfig("b", group, dir_.File("state-b"));
  ASSERT_TRUE(Produce(input_, stream).ok());
  DaemonProcess a(a_config, dir_.File("a.log")), b(b_config, dir_.File("b.log"));
  a.Start();
  ReadPublished(stream.size());
  EXPECT_EQ(ShardDirectories(dir_.File("state-a")), kPartitions);
  // A second member takes some partitions: the first deletes their shards
  // (the changelog has them) and keeps its own.
  b.Start();
  ASSERT_TRUE(b.WaitForLog("assigned", seconds(60))) << b.Log();
  ASSERT_TRUE(a.WaitForLog("deleted shard", seconds(30))) << a.Log();
  const int kept = ShardDirectories(dir_.File("state-a"));
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, kPartitions);
  EXPECT_EQ(a.Terminate(), 0) << a.Log();
  EXPECT_EQ(b.Terminate(), 0) << b.Log();
}

}  // namespace
}  // namespace pagesieve::testing
