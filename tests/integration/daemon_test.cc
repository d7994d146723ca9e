// pagesieve run against a real broker: verdicts equal pagesieve dedup's over
// each partition, through crashes, shutdowns, broker restarts, bad input and
// a consumer group of two.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <random>
#include <thread>

#include "daemon_fixture.h"
#include "wait_until.h"

namespace pagesieve::testing {
namespace {

using std::chrono::seconds;
using ::testing::HasSubstr;

// Runs one daemon over everything produced and stops it once all output is in.
Published RunToCompletion(DaemonProcess& daemon, size_t records,
                          const std::function<Published(size_t)>& read) {
  daemon.Start();
  Published published = read(records);
  EXPECT_EQ(daemon.Terminate(), 0) << daemon.Log();
  return published;
}

TEST_F(DaemonTest, VerdictsEqualDedupOverEachPartition) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 3});
  ASSERT_TRUE(Produce(input_, stream).ok());
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  DaemonProcess daemon(config, dir_.File("daemon.log"));
  Published published =
      RunToCompletion(daemon, stream.size(), [&](size_t n) { return ReadPublished(n); });
  Expected expected = ExpectVerdicts(config);
  ASSERT_EQ(expected.records, stream.size());
  ExpectPublishedEquals(published, expected);
  // A clean run publishes each verdict once, with where its record came from.
  for (const auto& [id, copies] : published.verdicts) {
    ASSERT_EQ(copies.size(), 1u) << id;
    EXPECT_EQ(copies[0]["source"]["topic"], input_);
  }
  EXPECT_THAT(daemon.Log(), HasSubstr("records ("));  // progress lines
}

// Backpressure pauses the input and resumes it where the daemon stands (a
// resume also seeks there, to wake librdkafka's fetcher at once: see
// Consumer::Resume). With a read-ahead of 1 MiB, a few real pages, the run
// pauses and resumes over and over: no record may be lost or read twice.
TEST_F(DaemonTest, PausesAndResumesOfASmallReadAheadLoseAndRepeatNothing) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 5});
  ASSERT_TRUE(Produce(input_, stream).ok());
  const std::string config =
      WriteConfig("run", "group-" + input_, dir_.File("state"),
                  "max_pending_bytes = 1048576\n[log]\nlevel = \"debug\"\n");
  DaemonProcess daemon(config, dir_.File("daemon.log"));
  Published published =
      RunToCompletion(daemon, stream.size(), [&](size_t n) { return ReadPublished(n); });
  Expected expected = ExpectVerdicts(config);
  ExpectPublishedEquals(published, expected);
  for (const auto& [id, copies] : published.verdicts) EXPECT_EQ(copies.size(), 1u) << id;
  const std::string log = daemon.Log();
  size_t resumes = 0;
  for (size_t at = log.find("backpressure: resuming"); at != std::string::npos;
       at = log.find("backpressure: resuming", at + 1)) {
    ++resumes;
  }
  EXPECT_GT(resumes, 0u);
  std::cout << stream.size() << " records, " << resumes << " resumes\n";
}

// The lane decides in offset order whatever order the pool prepares in (the
// same code puts pagesieve dedup's verdicts in input order: file_mode_test).
// Tiny batches over two workers finish out of order all the time; each
// input partition's verdicts must still come out in its order.
TEST_F(DaemonTest, EachPartitionsVerdictsComeOutInItsOrder) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 17, .articles = 20, .sites = 40});
  ASSERT_TRUE(Produce(input_, stream).ok());
  const std::string config =
      WriteConfig("run", "group-" + input_, dir_.File("state"), "batch_records = 1\nthreads = 2\n");
  DaemonProcess daemon(config, dir_.File("daemon.log"));
  RunToCompletion(daemon, stream.size(), [&](size_t n) { return ReadPublished(n); });
  int checked = 0;
  for (const std::string& topic : {unique_, duplicate_, skipped_}) {
    for (int32_t out = 0; out < 2; ++out) {
      StatusOr<std::vector<TestMessage>> messages = ReadPartition(topic, out);
      ASSERT_TRUE(messages.ok()) << messages.status().ToString();
      std::map<int, int64_t> last;  // input partition -> last offset seen
      for (const TestMessage& m : *messages) {
        const Json source = Json::parse(m.value)["source"];
        const int p = source["partition"];
        const int64_t offset = source["offset"];
        auto it = last.find(p);
        EXPECT_TRUE(it == last.end() || it->second < offset)
            << topic << "-" << out << ": input " << p << " offset " << offset << " after "
            << it->second;
        last[p] = offset;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, static_cast<int>(stream.size()));
}

// SIGKILLs at random moments of a run: every record gets the verdict
// pagesieve dedup gives it; `copies_per_record` is what each record's
// verdict count must be (0: any number, all identical).
class DaemonKillTest : public DaemonTest {
 protected:
  void KillAtRandomMoments(const std::string& guarantee);
};

void DaemonKillTest::KillAtRandomMoments(const std::string& guarantee) {
  std::vector<TestMessage> stream =
      LabelledStream({.seed = 5, .articles = 30, .sites = 80, .bad_records = 9});
  // One worker and small batches: the run is long enough to be cut.
  const std::string config = WriteConfig(
      "run", "group-" + input_, dir_.File("state"),
      "batch_records = 8\nthreads = 1\n[processing]\nguarantee = \"" + guarantee + "\"\n");
  // The stream comes in five slices, one before each run, so each run has
  // work to be cut in: the crash lands when the run has published a random
  // number of messages more than it found, at most half a slice. (Exactly
  // once, only committed verdicts count, and nothing is published twice.)
  // A run can finish its slice before its target: that crash does not
  // happen. At least two must.
  std::mt19937 rng(20261120);
  const size_t slice = stream.size() / 5;
  int landed = 0;
  for (int crash = 0; crash < 4; ++crash) {
    std::vector<TestMessage> part(stream.begin() + crash * slice,
                                  stream.begin() + (crash + 1) * slice);
    ASSERT_TRUE(Produce(input_, part).ok());
    DaemonProcess daemon(config, dir_.File("daemon-" + std::to_string(crash) + ".log"));
    const int64_t before = PublishedCount();
    const int64_t target = before + 1 + static_cast<int64_t>(rng() % (slice / 2));
    daemon.Start();
    const bool reached = WaitUntil([&] { return PublishedCount() >= target; }, seconds(60));
    daemon.Kill();
    if (reached) ++landed;
  }
  ASSERT_GE(landed, 2) << "too few crashes landed in the middle of the run";
  std::vector<TestMessage> rest(stream.begin() + 4 * slice, stream.end());
  ASSERT_TRUE(Produce(input_, rest).ok());
  DaemonProcess last(config, dir_.File("daemon.log"));
  last.Start();
  Published published = ReadPublished(stream.size());
  ASSERT_EQ(last.Terminate(), 0) << last.Log();
  ExpectPublishedEquals(published, ExpectVerdicts(config));
  size_t repeated = 0;
  for (const auto& [id, copies] : published.verdicts) {
    // Verdicts published before a crash were published again, identical.
    for (const Json& copy : copies) EXPECT_EQ(copy, copies.front()) << id;
    repeated += copies.size() > 1;
  }
  std::cout << guarantee << ": " << landed << " kills landed, " << repeated
            << " records published more than once\n";
  if (guarantee == "exactly_once") {
    // Read as read_committed: no record has two verdicts.
    EXPECT_EQ(repeated, 0u);
  }
}

TEST_F(DaemonKillTest, AtLeastOnceLosesNothingAndChangesNoVerdict) {
  KillAtRandomMoments("at_least_once");
}

TEST_F(DaemonKillTest, ExactlyOnceLosesNothingAndPublishesNothingTwice) {
  KillAtRandomMoments("exactly_once");
}

TEST_F(DaemonTest, SigtermUnderLoadFinishesInFlightRecordsAndExitsZero) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 7});
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  DaemonProcess daemon(config, dir_.File("daemon.log"));
  daemon.Start();
  // Produce while it runs, and stop it in the middle.
  std::thread producer([&] { ASSERT_TRUE(Produce(input_, stream).ok()); });
  // In the middle of the stream: some of it has verdicts, the rest not yet.
  const int64_t some = static_cast<int64_t>(stream.size()) / 10;
  EXPECT_TRUE(WaitUntil([&] { return PublishedCount() >= some; }, seconds(60)));
  const auto asked = std::chrono::steady_clock::now();
  EXPECT_EQ(daemon.Terminate(seconds(40)), 0) << daemon.Log();
  EXPECT_LT(std::chrono::steady_clock::now() - asked, seconds(35));
  producer.join();
  EXPECT_THAT(daemon.Log(), HasSubstr("stopping"));
  // A second run takes over where the first stopped: nothing repeated or lost.
  DaemonProcess again(config, dir_.File("daemon.log"));
  Published published =
      RunToCompletion(again, stream.size(), [&](size_t n) { return ReadPublished(n); });
  ExpectPublishedEquals(published, ExpectVerdicts(config));
  for (const auto& [id, copies] : published.verdicts) EXPECT_EQ(copies.size(), 1u) << id;
}

TEST_F(DaemonTest, ABrokerRestartInTheMiddleOfARunLosesNothing) {
  if (std::getenv("PAGESIEVE_TEST_BOOTSTRAP") != nullptr) {
    GTEST_SKIP() << "restarts the local broker; not done to an external one";
  }
  std::vector<TestMessage> stream = LabelledStream({.seed = 13, .articles = 30, .sites = 60});
  ASSERT_TRUE(Produce(input_, stream).ok());
  const std::string config =
      WriteConfig("run", "group-" + input_, dir_.File("state"), "threads = 1\n");
  DaemonProcess daemon(config, dir_.File("daemon.log"));
  daemon.Start();
  const int64_t fifth = static_cast<int64_t>(stream.size()) / 5;
  EXPECT_TRUE(WaitUntil([&] { return PublishedCount() >= fifth; }, seconds(60)));
  const std::string script = PAGESIEVE_SOURCE_DIR "/scripts/kafka-local";
  ASSERT_EQ(RunProcess({"/bin/bash", script, "stop"}).exit_code, 0);
  // The daemon meets a broker that is gone before it comes back: its
  // clients try to reconnect and are refused. (Not librdkafka's "All broker
  // connections are down": it comes only when librdkafka counts every one
  // of a client's brokers down at once, and in one CI run none of the
  // daemon's clients said it within 30 s.)
  EXPECT_TRUE(daemon.WaitForLog("Connection refused", seconds(30))) << daemon.Log();
  ProcessResult started = RunProcess({"/bin/bash", script, "start"});
  ASSERT_EQ(started.exit_code, 0) << started.err;
  Published published = ReadPublished(stream.size());
  EXPECT_EQ(daemon.Terminate(), 0) << daemon.Log();
  ExpectPublishedEquals(published, ExpectVerdicts(config));
}

TEST_F(DaemonTest, MalformedAndOversizedRecordsGoToTheDeadLetterTopicOrAreTruncated) {
  std::vector<TestMessage> stream =
      LabelledStream({.seed = 9, .articles = 8, .sites = 12, .bad_records = 6});
  ASSERT_TRUE(Produce(input_, stream).ok());
  // Most real pages are larger than 64 KiB: their verdicts say truncated.
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  const std::string small = dir_.File("small.toml");
  WriteFile(small, "max_body_bytes = 65536\n" + ReadFile(config));
  DaemonProcess daemon(small, dir_.File("daemon.log"));
  Published published =
      RunToCompletion(daemon, stream.size(), [&](size_t n) { return ReadPublished(n); });
  Expected expected = ExpectVerdicts(small);
  ExpectPublishedEquals(published, expected);
  EXPECT_EQ(published.dead_letters.size(), 6u);
  int truncated = 0;
  for (const auto& [id, copies] : published.verdicts)
    truncated += copies[0].value("truncated", false);
  EXPECT_GT(truncated, 0);
  for (const TestMessage& dead : published.dead_letters) {
    EXPECT_TRUE(dead.Header("pagesieve-error").has_value());
    EXPECT_EQ(dead.Header("pagesieve-source-topic"), input_);
    EXPECT_THAT(dead.Header("origin").value_or(""), HasSubstr("test-"));  // original headers kept
    EXPECT_THAT(dead.key.value_or(""), HasSubstr("bad-"));                // original key kept
  }
}

// pagesieve run and pagesieve dedup share the lane's checkpoint rule; this is
// the Kafka side of tests/daemon/pipeline/file_mode_test.cc's full disk. The
// unique-verdict topic refuses every verdict pagesieve sends it (they are
// all larger than its max.message.bytes): the daemon stops naming the
// failure, and no shard is checkpointed past output that never arrived: the
// first record of every partition is unique, so no checkpoint is past offset
// 0 (where a partition without records is checkpointed at its end).
TEST_F(DaemonTest, OutputThatCannotBeDeliveredStopsTheDaemonBeforeItsCheckpoint) {
  const std::string tiny = input_ + "-tiny";
  ASSERT_TRUE(CreateTopic(tiny, 2, std::chrono::seconds(30), {{"max.message.bytes", "100"}}).ok());
  std::vector<TestMessage> stream = LabelledStream({.seed = 11, .articles = 4, .sites = 8});
  ASSERT_TRUE(Produce(input_, stream).ok());
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  ProcessResult r = RunPagesieve({"run", "--config", config, "--set", "output.unique=" + tiny,
                                  "--from", "earliest", "--until", "end"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("delivering output of " + input_));
  EXPECT_THAT(r.err, HasSubstr("too large"));
  ProcessResult stats = RunPagesieve(
      {"state", "--config", config, "--state-dir", dir_.File("state"), "--json", "stats"});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  const Json shards = Json::parse(stats.out)["shards"];
  ASSERT_FALSE(shards.empty());
  for (const Json& shard : shards) {
    const Json& at = shard["checkpointed_offset"];
    EXPECT_TRUE(at.is_null() || at == 0) << shard.dump();
  }
}

// With output.include_body, a unique verdict carrying a page larger than its
// topic takes used to fail delivery after every restart, and nothing later
// in the partition was decided. Now the body is left out (and the verdict
// says how large it was): every record gets its verdict and the run ends.
TEST_F(DaemonTest, AVerdictTooLargeForItsTopicLeavesOutTheBodyAndTheRunGoesOn) {
  const std::string small = input_ + "-small";
  ASSERT_TRUE(
      CreateTopic(small, 2, std::chrono::seconds(30), {{"max.message.bytes", "16384"}}).ok());
  std::vector<TestMessage> stream = LabelledStream({.seed = 12, .articles = 4, .sites = 8});
  ASSERT_TRUE(Produce(input_, stream).ok());
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  ProcessResult r = RunPagesieve({"run", "--config", config, "--set", "output.unique=" + small,
                                  "--set", "output.include_body=true", "--from", "earliest",
                                  "--until", "end"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int64_t published = 0;
  for (const std::string& topic : {small, duplicate_, skipped_, dead_letter_}) {
    StatusOr<int64_t> n = MessageCount(topic);
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    published += *n;
  }
  EXPECT_EQ(published, static_cast<int64_t>(stream.size()));
  int with_body = 0, omitted = 0;
  for (int32_t p = 0; p < 2; ++p) {
    StatusOr<std::vector<TestMessage>> messages = ReadPartition(small, p);
    ASSERT_TRUE(messages.ok()) << messages.status().ToString();
    for (const TestMessage& m : *messages) {
      EXPECT_LE(m.value.size(), 16384u);
      const Json v = Json::parse(m.value);
      with_body += v.contains("body");
      if (v.contains("body_omitted_bytes")) {
        ++omitted;
        EXPECT_GT(v["body_omitted_bytes"].get<int64_t>(), 10000) << v.dump();
      }
    }
  }
  EXPECT_GT(omitted, 0);
  EXPECT_GT(with_body + omitted, 0);
}

TEST_F(DaemonTest, AMissingTopicStopsStartUpWithOneClearMessage) {
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  const std::string missing_input = dir_.File("missing-input.toml");
  WriteFile(missing_input, ReadFile(config));
  ProcessResult r = RunPagesieve(
      {"run", "--config", missing_input, "--set", "kafka.input_topic=no-such-topic-" + input_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("input topic 'no-such-topic-"));
  EXPECT_THAT(r.err, HasSubstr("does not exist"));
  ProcessResult out = RunPagesieve(
      {"run", "--config", config, "--set", "output.duplicate=no-such-output-" + input_});
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_THAT(out.err, HasSubstr("(output.duplicate)"));
}

TEST_F(DaemonTest, AnUnreachableBrokerStopsStartUpAfterTheTimeout) {
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  ProcessResult r =
      RunPagesieve({"run", "--config", config, "--set", "kafka.bootstrap_servers=127.0.0.1:1",
                    "--set", "kafka.startup_timeout=2s"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("cannot reach Kafka at 127.0.0.1:1 within 2s"));
}

TEST_F(DaemonTest, AnUnwritableStateDirectoryStopsStartUp) {
  const std::string config = WriteConfig("run", "group-" + input_, "/proc/pagesieve-state");
  ProcessResult r = RunPagesieve({"run", "--config", config});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("state directory '/proc/pagesieve-state' is not writable"));
}

TEST_F(DaemonTest, AnInvalidConfigurationExitsTwo) {
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  ProcessResult r = RunPagesieve({"run", "--config", config, "--set", "kafka.producer.acks=1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("acks"));
}

TEST_F(DaemonTest, ABackfillExitsAtTheEndWithTheLiveRunsVerdicts) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 17});
  ASSERT_TRUE(Produce(input_, stream).ok());
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  DaemonProcess live(config, dir_.File("live.log"));
  Published live_published =
      RunToCompletion(live, stream.size(), [&](size_t n) { return ReadPublished(n); });
  // The backfill: its own group, state and output topics, the whole topic.
  const std::string replay = input_ + "-replay";
  ASSERT_TRUE(CreateTopic(replay, 2).ok());
  ProcessResult backfill =
      RunPagesieve({"run", "--config", config, "--set", "kafka.group_id=backfill-" + input_,
                    "--set", "state.dir=" + dir_.File("backfill-state"), "--set",
                    "output.unique=" + replay, "--set", "output.duplicate=" + replay, "--set",
                    "output.skipped=" + replay, "--from", "earliest", "--until", "end"});
  ASSERT_EQ(backfill.exit_code, 0) << backfill.err;
  EXPECT_THAT(backfill.err, HasSubstr("backfill complete: " + std::to_string(stream.size())));
  std::vector<TestMessage> replayed = ConsumeAll(replay, stream.size(), seconds(60));
  ASSERT_EQ(replayed.size(), stream.size());
  for (const TestMessage& m : replayed) {
    Json v = Json::parse(m.value);
    const std::vector<Json>& live_copies = live_published.verdicts[v["event_id"]];
    ASSERT_EQ(live_copies.size(), 1u) << v["event_id"];
    EXPECT_EQ(v, live_copies[0]);  // source included: the same input records
  }
}

TEST_F(DaemonTest, TwoInstancesSplitTheGroupAndTheSurvivorTakesOver) {
  std::vector<TestMessage> stream = LabelledStream({.seed = 11});
  const size_t half = stream.size() / 2;
  const std::vector<TestMessage> first(stream.begin(), stream.begin() + half);
  const std::vector<TestMessage> second(stream.begin() + half, stream.end());
  const std::string config = WriteConfig("run", "group-" + input_, dir_.File("state"));
  DaemonProcess a(config, dir_.File("a.log")), b(config, dir_.File("b.log"));
  a.Start();
  b.Start();
  // Both take part: cooperative rebalancing hands each some partitions.
  ASSERT_TRUE(a.WaitForLog("assigned", seconds(60))) << a.Log();
  ASSERT_TRUE(b.WaitForLog("assigned", seconds(60))) << b.Log();
  ASSERT_TRUE(Produce(input_, first).ok());
  ReadPublished(first.size());
  EXPECT_EQ(a.Terminate(), 0) << a.Log();
  ASSERT_TRUE(Produce(input_, second).ok());
  Published published = ReadPublished(stream.size());
  EXPECT_EQ(b.Terminate(), 0) << b.Log();
  ExpectPublishedEquals(published, ExpectVerdicts(config));
  for (const auto& [id, copies] : published.verdicts) EXPECT_EQ(copies.size(), 1u) << id;
}

// A backfill run by two instances of one group: each reads its share to
// the ends it took at its start, learns from the group's committed offsets
// that the other read the rest, and exits by itself. Before, each waited
// for the partitions the other held (paused at their ends), and neither
// ended. Should one instance read everything before the other joins (a
// CI machine once started the second that late), the second learns it all
// from the group's offsets and exits without reading.
TEST_F(DaemonTest, ABackfillSplitBetweenInstancesEndsInEachOfThem) {
  // Large enough that the second instance joins while the first still reads.
  std::vector<TestMessage> stream =
      LabelledStream({.seed = 43, .articles = 120, .sites = 320, .bad_records = 4});
  ASSERT_TRUE(Produce(input_, stream).ok());
  const std::string group = "group-" + input_;
  const std::string extra = "batch_records = 8\nthreads = 1\n";
  const std::string config_a = WriteConfig("a", group, dir_.File("state-a"), extra);
  const std::string config_b = WriteConfig("b", group, dir_.File("state-b"), extra);
  DaemonProcess a(config_a, dir_.File("a.log"), {"--until", "end"});
  DaemonProcess b(config_b, dir_.File("b.log"), {"--until", "end"});
  a.Start();
  b.Start();
  EXPECT_EQ(a.Wait(seconds(180)), 0) << a.Log();
  EXPECT_EQ(b.Wait(seconds(180)), 0) << b.Log();
  // At least one partition was read to its end by one instance and learned
  // by the other from the group.
  EXPECT_THAT(a.Log() + b.Log(), HasSubstr("by another member of the group"));
  const bool split = a.Log().find("reached offset") != std::string::npos &&
                     b.Log().find("reached offset") != std::string::npos;
  std::cout << (split ? "both instances read partitions to their ends"
                      : "one instance read every partition before the other joined")
            << "\n";
  Published published = ReadPublished(stream.size());
  ExpectPublishedEquals(published, ExpectVerdicts(config_a));
  for (const auto& [id, copies] : published.verdicts) EXPECT_EQ(copies.size(), 1u) << id;
}

}  // namespace
}  // namespace pagesieve::testing
