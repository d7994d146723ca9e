// Where a partition starts depends on two answers from the brokers: its
// watermarks and the group's committed offset. While a broker restarts they
// come back as errors for a while (leaders move, the coordinator loads); the
// consumer and the member taking a partition up (run::Assignment) must wait
// those out, and never take an error for "nothing committed". On
// librdkafka's mock cluster, with the errors injected.
#include "kafka/consumer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <librdkafka/rdkafkacpp.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "config/config.h"
#include "demo/mock_cluster.h"
#include "metrics/registry.h"
#include "pipeline/recording_lanes.h"
#include "run/assignment.h"
#include "run/run_metrics.h"

namespace pagesieve::kafka {
namespace {

constexpr int16_t kListOffsets = 2;  // the Kafka protocol's requests
constexpr int16_t kOffsetFetch = 9;
constexpr int kNotLeaderOrFollower = 6;
constexpr int kCoordinatorLoadInProgress = 14;
constexpr int kUnstableOffsetCommit = 88;
constexpr int32_t kBroker = 1;
constexpr int kRecords = 10;
constexpr int64_t kCommitted = 7;

class NoRebalances : public RebalanceListener {
 public:
  void OnAssigned(const std::vector<PartitionId>&) override {}
  void OnRevoked(const std::vector<PartitionId>&) override {}
  void OnLost(const std::vector<PartitionId>&) override {}
};

std::unique_ptr<RdKafka::Conf> ClientConf(const std::string& bootstrap) {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string err;
  conf->set("bootstrap.servers", bootstrap, err);
  return conf;
}

class ConsumerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<std::unique_ptr<demo::MockCluster>> cluster = demo::MockCluster::Start(1);
    ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
    cluster_ = std::move(*cluster);
    ASSERT_TRUE(cluster_->CreateTopic("in", 1).ok());
    StatusOr<Config> config = Config::FromToml("[kafka]\nbootstrap_servers = \"" +
                                                   cluster_->bootstrap_servers() +
                                                   "\"\ngroup_id = \"starts\"\n",
                                               "test", {});
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    StatusOr<KafkaOptions> options = KafkaOptionsFromConfig(*config);
    ASSERT_TRUE(options.ok()) << options.status().ToString();
    options_ = *options;
    ProduceRecords();
    CommitOffset();
    StatusOr<std::unique_ptr<Consumer>> member =
        Consumer::CreateMember(options_, "in", no_rebalances_);
    ASSERT_TRUE(member.ok()) << member.status().ToString();
    member_ = std::move(*member);
  }

  void ProduceRecords() {
    std::string err;
    std::unique_ptr<RdKafka::Producer> producer(
        RdKafka::Producer::create(ClientConf(cluster_->bootstrap_servers()).get(), err));
    ASSERT_NE(producer, nullptr) << err;
    for (int i = 0; i < kRecords; ++i) {
      std::string value = "record " + std::to_string(i);
      ASSERT_EQ(producer->produce("in", 0, RdKafka::Producer::RK_MSG_COPY, value.data(),
                                  value.size(), nullptr, 0, 0, nullptr),
                RdKafka::ERR_NO_ERROR);
    }
    ASSERT_EQ(producer->flush(10000), RdKafka::ERR_NO_ERROR);
  }

  // The group's offset, as a member that went away left it.
  void CommitOffset() {
    std::unique_ptr<RdKafka::Conf> conf = ClientConf(cluster_->bootstrap_servers());
    std::string err;
    conf->set("group.id", options_.group_id, err);
    std::unique_ptr<RdKafka::KafkaConsumer> committer(RdKafka::KafkaConsumer::create(conf.get(), err));
    ASSERT_NE(committer, nullptr) << err;
    std::vector<RdKafka::TopicPartition*> offsets = {
        RdKafka::TopicPartition::create("in", 0, kCommitted)};
    const RdKafka::ErrorCode committed = committer->commitSync(offsets);
    RdKafka::TopicPartition::destroy(offsets);
    ASSERT_EQ(committed, RdKafka::ERR_NO_ERROR) << RdKafka::err2str(committed);
    committer->close();
  }

  // Several answers in a row: librdkafka asks again by itself for some.
  void FailNext(int16_t api_key, int error, int times) {
    for (int i = 0; i < times; ++i) cluster_->FailNextRequest(kBroker, api_key, error);
  }

  Clock::SteadyTime Later() { return clock_.SteadyNow() + std::chrono::seconds(30); }

  ManualClock clock_;
  std::unique_ptr<demo::MockCluster> cluster_;
  KafkaOptions options_;
  NoRebalances no_rebalances_;
  std::unique_ptr<Consumer> member_;
};

TEST_F(ConsumerTest, WatermarksWaitOutALeaderThatMoved) {
  FailNext(kListOffsets, kNotLeaderOrFollower, 2);  // both of one query's requests
  StatusOr<std::pair<int64_t, int64_t>> marks =
      member_->AwaitWatermarks(PartitionId(0), clock_, Later());
  ASSERT_TRUE(marks.ok()) << marks.status().ToString();
  EXPECT_EQ(marks->first, 0);
  EXPECT_EQ(marks->second, kRecords);
}

// The pipeline waits for input and for its prepare pool in one Consume: a
// worker's Wake ends that wait, and one that comes while nobody waits ends
// the next (the pool finished a batch while the thread was busy).
TEST_F(ConsumerTest, AWakeEndsTheConsumeThatWaitsOrTheNextOne) {
  using std::chrono::seconds;
  const auto start = std::chrono::steady_clock::now();
  member_->Wake();
  EXPECT_EQ(member_->Consume(seconds(30)).kind(), Consumed::Kind::kTimedOut);
  std::thread waker([this] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    member_->Wake();
  });
  EXPECT_EQ(member_->Consume(seconds(30)).kind(), Consumed::Kind::kTimedOut);
  waker.join();
  // Either Consume left to its wait takes 30 s.
  EXPECT_LT(std::chrono::steady_clock::now() - start, seconds(20));
}

// A coordinator loading its state after a restart, and an offset that a
// dead member's open transaction leaves unstable.
TEST_F(ConsumerTest, TheCommittedOffsetWaitsOutPassingErrors) {
  for (int error : {kCoordinatorLoadInProgress, kUnstableOffsetCommit}) {
    SCOPED_TRACE(error);
    FailNext(kOffsetFetch, error, 3);
    StatusOr<std::optional<Offset>> committed =
        member_->AwaitCommitted(PartitionId(0), clock_, Later());
    ASSERT_TRUE(committed.ok()) << committed.status().ToString();
    ASSERT_TRUE(committed->has_value());
    EXPECT_EQ((*committed)->value(), kCommitted);
  }
}

// Past its deadline the error is the answer: a start from the partition's
// beginning (no offset) would decide and publish its records again.
TEST_F(ConsumerTest, AnErrorPastTheDeadlineIsNeverTakenForNothingCommitted) {
  // librdkafka asks again by itself every 100 ms or so: these outlast the
  // request's shortest timeout.
  FailNext(kOffsetFetch, kUnstableOffsetCommit, 30);
  StatusOr<std::optional<Offset>> committed =
      member_->AwaitCommitted(PartitionId(0), clock_, clock_.SteadyNow());
  EXPECT_FALSE(committed.ok());
}

TEST_F(ConsumerTest, AGroupThatNeverCommittedHasNoOffset) {
  options_.group_id = "new-group";
  StatusOr<std::unique_ptr<Consumer>> fresh = Consumer::CreateMember(options_, "in", no_rebalances_);
  ASSERT_TRUE(fresh.ok()) << fresh.status().ToString();
  StatusOr<std::optional<Offset>> committed =
      (*fresh)->AwaitCommitted(PartitionId(0), clock_, Later());
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
  EXPECT_FALSE(committed->has_value());
}

// Exactly once, a shard checkpointed at 4 behind the group's committed 7:
// the member starts at 4 and decides 4-6 for the state only (their verdicts
// were committed). The broker, just restarted, answers the watermark query
// "not leader" first: the member used to stop there.
TEST_F(ConsumerTest, AMemberTakesAPartitionUpThroughALeaderThatMoved) {
  options_.processing.exactly_once = true;
  options_.startup_timeout = std::chrono::seconds(30);
  run::RunOptions run;
  metrics::Registry registry;
  run::RunMetrics metrics(registry);
  run::Assignment assignment(options_, run, *member_, nullptr, nullptr, nullptr, metrics, clock_);
  pipeline::testing::RecordingLanes lanes;
  lanes.checkpointed = Offset(4);
  FailNext(kListOffsets, kNotLeaderOrFollower, 2);
  assignment.OnAssigned({PartitionId(0)}, lanes);
  ASSERT_TRUE(assignment.fatal().ok()) << assignment.fatal().ToString();
  ASSERT_TRUE(lanes.start.has_value());
  EXPECT_EQ(lanes.start->value(), 4);
  ASSERT_TRUE(lanes.replay_until.has_value());
  EXPECT_EQ(lanes.replay_until->value(), kCommitted);
}

// A dead member's open transaction leaves the group's offset unstable until
// the transaction times out (a minute by default). A member given the
// partition meanwhile must neither guess its start nor stop polling (the
// group drops a member that does not poll within max.poll.interval.ms, and
// its other partitions wait): the partition stays given-but-not-taken-up,
// its lane closed, and a later Advance() takes it up where it belongs.
class AssignmentTest : public ConsumerTest {
 protected:
  AssignmentTest() : metrics_(registry_) {
    options_.processing.exactly_once = true;
    lanes_.checkpointed = Offset(4);
  }

  // The real clock: the assignment's rounds of asking are bounded in time.
  run::Assignment Make() {
    return run::Assignment(options_, run_, *member_, nullptr, nullptr, nullptr, metrics_,
                           Clock::System());
  }

  run::RunOptions run_;
  metrics::Registry registry_;
  run::RunMetrics metrics_;
  pipeline::testing::RecordingLanes lanes_;
};

// librdkafka asks again by itself about every 100 ms: these outlast several
// of the assignment's rounds of asking.
constexpr int kUnstableAnswers = 30;

TEST_F(AssignmentTest, APartitionWhoseOffsetIsUnstableWaitsWithoutHoldingThePollLoop) {
  options_.startup_timeout = std::chrono::seconds(60);
  run::Assignment assignment = Make();
  FailNext(kOffsetFetch, kUnstableOffsetCommit, kUnstableAnswers);
  assignment.OnAssigned({PartitionId(0)}, lanes_);
  ASSERT_TRUE(assignment.fatal().ok()) << assignment.fatal().ToString();
  // Back to the poll loop without an answer: nothing opened, nothing guessed.
  EXPECT_TRUE(assignment.pending(PartitionId(0)));
  EXPECT_FALSE(lanes_.IsOpen(PartitionId(0)));
  EXPECT_FALSE(lanes_.start.has_value());

  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (assignment.pending() && std::chrono::steady_clock::now() < give_up) {
    const Status advanced = assignment.Advance(lanes_);
    ASSERT_TRUE(advanced.ok()) << advanced.ToString();
  }
  ASSERT_FALSE(assignment.pending());
  EXPECT_TRUE(lanes_.IsOpen(PartitionId(0)));
  ASSERT_TRUE(lanes_.start.has_value());
  EXPECT_EQ(lanes_.start->value(), 4);
  ASSERT_TRUE(lanes_.replay_until.has_value());
  EXPECT_EQ(lanes_.replay_until->value(), kCommitted);
}

TEST_F(AssignmentTest, APartitionTakenAwayWhileItWaitsIsLetGoWithoutALane) {
  options_.startup_timeout = std::chrono::seconds(60);
  run::Assignment assignment = Make();
  FailNext(kOffsetFetch, kUnstableOffsetCommit, kUnstableAnswers);
  assignment.OnAssigned({PartitionId(0)}, lanes_);
  ASSERT_TRUE(assignment.pending(PartitionId(0)));
  assignment.OnRevoked({PartitionId(0)}, lanes_);
  EXPECT_FALSE(assignment.pending());
  EXPECT_TRUE(assignment.Advance(lanes_).ok());
  EXPECT_FALSE(lanes_.IsOpen(PartitionId(0)));
  EXPECT_FALSE(lanes_.start.has_value());
}

// Past startup_timeout + transaction_timeout the offset is still unknown:
// the stage stops with the reason rather than guess.
TEST_F(AssignmentTest, AnOffsetUnstablePastTheDeadlineStopsTheStage) {
  options_.startup_timeout = std::chrono::milliseconds(0);
  options_.processing.transaction_timeout = std::chrono::milliseconds(800);
  run::Assignment assignment = Make();
  FailNext(kOffsetFetch, kUnstableOffsetCommit, kUnstableAnswers);
  assignment.OnAssigned({PartitionId(0)}, lanes_);
  ASSERT_TRUE(assignment.fatal().ok()) << assignment.fatal().ToString();
  Status advanced;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (advanced.ok() && assignment.pending() && std::chrono::steady_clock::now() < give_up) {
    advanced = assignment.Advance(lanes_);
  }
  EXPECT_FALSE(advanced.ok());
  EXPECT_THAT(advanced.ToString(), ::testing::HasSubstr("committed offset"));
  EXPECT_FALSE(lanes_.start.has_value());
}

}  // namespace
}  // namespace pagesieve::kafka
