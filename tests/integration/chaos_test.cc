// Chaos in one consumer group, exactly once (docs/daemon.md, "Exactly
// once"): three instances with their own disks over a real-page stream,
// with SIGKILLs of a random instance, an instance joining and one leaving,
// one frozen with SIGSTOP past its session timeout and then let go
// on as a zombie, and a broker restart. Read with read_committed, every input
// record must have exactly one verdict or dead letter, equal to what
// pagesieve dedup gives over its partition, and no changelog partition's
// checkpoint marker may ever go back. Both in one stage (input keyed by
// scope) and in two (an unkeyed input through the re-keying stage).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <random>
#include <thread>

#include "daemon_fixture.h"
#include "daemon_group.h"
#include "store/changelog.h"
#include "wait_until.h"

namespace pagesieve::testing {
namespace {

using std::chrono::seconds;

enum class Stages { kOne, kTwo };

// What one run went through, for the test's output.
struct Tally {
  int kills = 0;
  int broker_restarts = 0;
  int freezes = 0;
  int joins = 0;
  int leaves = 0;
};

class ChaosTest : public DaemonTest, public ::testing::WithParamInterface<Stages> {
 protected:
  // Waits until the run has published a random number of messages more than
  // now (at most `most`), or 60 s: the next blow lands in the middle of work.
  // Never past `produced`: each record produced so far yields at least one
  // message, so that many always come (the count also holds transaction
  // markers, so it may be there already). Without that cap, a run that had
  // decided all it was given waited out the 60 s, twice a run.
  void LetItWork(std::mt19937& rng, int64_t most, size_t produced) {
    const int64_t target = std::min(PublishedCount() + 1 + static_cast<int64_t>(rng() % most),
                                    static_cast<int64_t>(produced));
    WaitUntil([&] { return PublishedCount() >= target; }, seconds(60));
  }

  // Checkpoint markers of every changelog partition, in the order they were
  // committed: neither the input offset nor the watermark ever goes back.
  void ExpectCheckpointsOnlyMoveForward(const std::string& changelog, int partitions) {
    int markers = 0;
    for (int32_t p = 0; p < partitions; ++p) {
      StatusOr<std::vector<TestMessage>> records = ReadPartition(changelog, p);
      ASSERT_TRUE(records.ok()) << records.status().ToString();
      std::optional<store::ChangelogMarker> last;
      for (const TestMessage& m : *records) {
        StatusOr<store::ChangelogKey> key = store::DecodeChangelogKey(m.key.value_or(""));
        ASSERT_TRUE(key.ok()) << key.status().ToString();
        if (!key->marker) continue;
        StatusOr<store::ChangelogMarker> marker = store::DecodeChangelogMarker(m.value);
        ASSERT_TRUE(marker.ok()) << marker.status().ToString();
        ++markers;
        if (last) {
          EXPECT_GE(marker->next_offset.value(), last->next_offset.value())
              << changelog << "-" << p << " at " << m.offset;
          EXPECT_GE(marker->watermark.millis(), last->watermark.millis())
              << changelog << "-" << p << " at " << m.offset;
        }
        last = *marker;
      }
    }
    EXPECT_GT(markers, partitions);
  }
};

TEST_P(ChaosTest, EveryRecordGetsOneVerdictEqualToDedupsThroughKillsFreezesAndARestart) {
  const bool two_stages = GetParam() == Stages::kTwo;
  std::vector<TestMessage> stream =
      LabelledStream({.seed = 41, .articles = 30, .sites = 80, .bad_records = 9});
  if (two_stages) {
    // Unkeyed, each site on one input partition (not the one its scope
    // hashes to): the re-keying stage moves every record, and dedup over
    // each input partition is still the reference.
    std::map<std::string, int32_t> partition_of;
    for (TestMessage& m : stream) {
      m.partition = partition_of.emplace(*m.key, partition_of.size() % kPartitions).first->second;
      m.key.reset();
    }
  }
  const std::string group = "group-" + input_;
  // One worker and small batches: the run is long enough to be cut.
  const std::string extra =
      std::string("batch_records = 8\nthreads = 1\n") +
      "[processing]\nguarantee = \"exactly_once\"\ntransaction_timeout = \"20s\"\n" +
      (two_stages ? "[input]\npartitioned_by = \"url\"\nrepartition_partitions = 4\n" : "");
  std::vector<std::string> configs;
  for (const char* name : {"a", "b", "c"}) {
    configs.push_back(WriteConfig(name, group, dir_.File(std::string("state-") + name), extra));
  }
  const bool local_broker = std::getenv("PAGESIEVE_TEST_BOOTSTRAP") == nullptr;
  const std::string kafka_local = PAGESIEVE_SOURCE_DIR "/scripts/kafka-local";

  std::mt19937 rng(two_stages ? 2026112402 : 2026112401);
  const size_t slice = stream.size() / 6;
  size_t produced = 0;
  auto produce = [&](size_t n) {
    n = std::min(n, stream.size() - produced);
    std::vector<TestMessage> part(stream.begin() + produced, stream.begin() + produced + n);
    ASSERT_TRUE(Produce(input_, part, /*to_partitions=*/two_stages).ok());
    produced += n;
  };
  Tally tally;
  // Each step's time, printed: where a slow run spends it.
  const auto started_at = std::chrono::steady_clock::now();
  auto step_done = [&](const char* what) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started_at);
    std::cout << "  " << ms.count() / 1000.0 << " s: " << what << "\n" << std::flush;
  };
  Group instances(dir_, configs);
  auto kill_and_restart = [&] {
    const size_t victim = instances.Pick(rng);
    instances.At(victim)->Kill();
    ++tally.kills;
    instances.Start(victim);
  };

  instances.Start(0);
  instances.Start(1);
  ASSERT_TRUE(instances.At(0)->WaitForLog("assigned", seconds(60))) << instances.Logs();
  ASSERT_TRUE(instances.At(1)->WaitForLog("assigned", seconds(60))) << instances.Logs();
  step_done("started");

  // 1. Kills in the middle of work.
  produce(slice);
  LetItWork(rng, slice / 2, produced);
  kill_and_restart();
  LetItWork(rng, slice / 4, produced);
  kill_and_restart();
  step_done("kills");

  // 2. A third instance joins; another kill while the group rebalances.
  produce(slice);
  instances.Start(2);
  ++tally.joins;
  LetItWork(rng, slice / 2, produced);
  kill_and_restart();
  step_done("join");

  // 3. A zombie: one instance frozen past its session timeout
  // while the others take its partitions over and the stream goes on, then
  // let go on. Whatever it had in flight must not reach a read_committed
  // reader, and it must not move a changelog marker back.
  produce(slice);
  LetItWork(rng, slice / 4, produced);
  DaemonProcess* frozen = instances.At(instances.Pick(rng));
  frozen->Freeze();
  ++tally.freezes;
  produce(slice);
  // Frozen, its heartbeats stop with it: past session.timeout.ms (6 s in
  // the fixture) it is out of the group, as past max.poll.interval.ms.
  std::this_thread::sleep_for(seconds(12));
  frozen->Thaw();
  LetItWork(rng, slice / 4, produced);
  step_done("freeze");

  // 4. The broker goes away and comes back (only the local one).
  if (local_broker) {
    produce(slice / 2);
    ASSERT_EQ(RunProcess({"/bin/bash", kafka_local, "stop"}).exit_code, 0);
    std::this_thread::sleep_for(seconds(3));
    ProcessResult started = RunProcess({"/bin/bash", kafka_local, "start"});
    ASSERT_EQ(started.exit_code, 0) << started.err;
    ++tally.broker_restarts;
  }
  step_done("broker restart");

  // 5. One leaves cleanly, one more kill, and the rest of the stream.
  produce(slice);
  const size_t leaving = instances.Pick(rng);
  EXPECT_EQ(instances.At(leaving)->Terminate(), 0) << instances.Logs();
  instances.Forget(leaving);
  ++tally.leaves;
  LetItWork(rng, slice / 4, produced);
  kill_and_restart();
  produce(stream.size());
  step_done("leave and kill");

  Published published = ReadPublished(stream.size());
  step_done("every verdict read");
  for (size_t i : instances.Running()) {
    EXPECT_EQ(instances.At(i)->Terminate(), 0) << instances.Logs();
  }
  const Expected expected = ExpectVerdicts(configs[0]);
  ExpectPublishedEquals(published, expected);
  size_t repeated = 0;
  for (const auto& [id, copies] : published.verdicts) repeated += copies.size() > 1;
  EXPECT_EQ(repeated, 0u);
  // ExpectPublishedEquals compares the dead letters as a set: none twice.
  EXPECT_EQ(published.dead_letters.size(), expected.dead_letters.size());
  ExpectCheckpointsOnlyMoveForward(group + "-state-changelog", kPartitions);
  step_done("stopped and checked");

  const int assigned =
      instances.CountInLogs("assigned " + (two_stages ? group + "-repartition" : input_));
  const int revoked = instances.CountInLogs("revoked ");
  const int lost = instances.CountInLogs("lost ");
  const int aborted = instances.CountInLogs("transaction aborted");
  std::cout << (two_stages ? "two stages" : "one stage") << ": " << stream.size() << " records, "
            << tally.kills << " kills, " << tally.freezes << " freeze, " << tally.joins
            << " join, " << tally.leaves << " leave, " << tally.broker_restarts
            << " broker restart; " << assigned << " partitions assigned, " << revoked
            << " revoked, " << lost << " lost, " << aborted << " transactions aborted; "
            << repeated << " records published more than once\n";
  if (HasFailure()) std::cout << instances.Logs();
}

INSTANTIATE_TEST_SUITE_P(Stages, ChaosTest, ::testing::Values(Stages::kOne, Stages::kTwo),
                         [](const ::testing::TestParamInfo<Stages>& param) {
                           return param.param == Stages::kOne ? "OneStage" : "TwoStages";
                         });

}  // namespace
}  // namespace pagesieve::testing
