// The transactional sink's answers to a coordinator that misbehaves, on
// librdkafka's mock cluster with injected faults (a real broker cannot be
// made to give these answers on demand).
#include "kafka/kafka_sink.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "demo/mock_cluster.h"
#include "kafka/consumer.h"

namespace pagesieve::kafka {
namespace {

constexpr int16_t kAddPartitionsToTxn = 24;  // the Kafka protocol's requests
constexpr int16_t kEndTxn = 26;
constexpr int16_t kTxnOffsetCommit = 28;
constexpr int kUnknownMemberId = 25;
constexpr int kInvalidTxnState = 48;
constexpr int kProducerFenced = 90;
constexpr int32_t kBroker = 1;

class KafkaSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<std::unique_ptr<demo::MockCluster>> cluster = demo::MockCluster::Start(1);
    ASSERT_TRUE(cluster.ok()) << cluster.status().ToString();
    cluster_ = std::move(*cluster);
    ASSERT_TRUE(cluster_->CreateTopic("out", 1).ok());
    StatusOr<Config> config = Config::FromToml(
        "[kafka]\nbootstrap_servers = \"" + cluster_->bootstrap_servers() +
            "\"\nstartup_timeout = \"10s\"\n[processing]\nguarantee = \"exactly_once\"\n"
            "transaction_timeout = \"2s\"\n",
        "test", {});
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    StatusOr<KafkaOptions> options = KafkaOptionsFromConfig(*config);
    ASSERT_TRUE(options.ok()) << options.status().ToString();
    options->processing.transactional_id = "sink-test";
    options_ = *options;
    StatusOr<std::unique_ptr<Consumer>> member = Consumer::CreateReader(options_, "out");
    ASSERT_TRUE(member.ok()) << member.status().ToString();
    member_ = std::move(*member);
    CreateSink(/*exclusive_id=*/false);
  }

  // A sink whose transactional.id is configured (shared by mistake, maybe),
  // or, `exclusive_id`, a locked slot of this process's state directory.
  void CreateSink(bool exclusive_id) {
    sink_.reset();
    options_.processing.transactional_id_exclusive = exclusive_id;
    StatusOr<std::unique_ptr<KafkaSink>> sink =
        KafkaSink::Create(options_, nullptr, member_.get(), clock_);
    ASSERT_TRUE(sink.ok()) << sink.status().ToString();
    sink_ = std::move(*sink);
  }

  static pipeline::OutputMessage Verdict() {
    pipeline::OutputMessage m;
    m.topic = "out";
    m.value = "verdict";
    return m;
  }

  // Sends one message in the open transaction (beginning one) and waits for
  // its delivery report, failed or not.
  std::shared_ptr<pipeline::DeliveryCounter> SendAndAwaitReport() {
    auto counter = std::make_shared<pipeline::DeliveryCounter>();
    const Status sent = sink_->Send(Verdict(), counter);
    EXPECT_TRUE(sent.ok()) << sent.ToString();
    for (int i = 0; i < 500 && counter->unacknowledged > 0; ++i) {
      sink_->Poll(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(counter->unacknowledged, 0);
    return counter;
  }

  // The same, and the message must have been acknowledged.
  void SendOne() {
    const std::shared_ptr<pipeline::DeliveryCounter> counter = SendAndAwaitReport();
    ASSERT_EQ(counter->failures, 0) << counter->first_error;
  }

  // Past the options' 2 s transaction timeout: what a stalled process's
  // open transaction has lasted when it finds itself fenced.
  static constexpr Duration kStall = std::chrono::seconds(3);

  ManualClock clock_;
  KafkaOptions options_;
  std::unique_ptr<demo::MockCluster> cluster_;
  std::unique_ptr<Consumer> member_;
  std::unique_ptr<KafkaSink> sink_;
};

// After a broker restart the coordinator may never have seen the
// transaction begin, and refuses to abort it: librdkafka calls that fatal.
// Nothing of it was committed, so a new producer under the same
// transactional.id goes on, where the daemon used to stop.
TEST_F(KafkaSinkTest, AnAbortTheCoordinatorRefusesStartsANewProducerThatGoesOn) {
  SendOne();
  cluster_->FailNextRequest(kBroker, kEndTxn, kInvalidTxnState);
  const Status aborted = sink_->AbortTransaction();
  ASSERT_TRUE(aborted.ok()) << aborted.ToString();
  EXPECT_FALSE(sink_->in_transaction());
  EXPECT_EQ(sink_->unacknowledged(), 0);
  SendOne();
  const Status committed = sink_->CommitTransaction({});
  EXPECT_TRUE(committed.ok()) << committed.ToString();
}

// After a coordinator restart the group may no longer count the member
// whose offsets the transaction carries: the commit is aborted and says so
// with its own code, which tells the pipeline that retrying before the
// member rejoins is in vain (Pipeline::Shutdown). The next transaction
// goes on.
TEST_F(KafkaSinkTest, OffsetsOfAMemberTheGroupForgotAbortTheTransactionAndSaySo) {
  SendOne();
  cluster_->FailNextRequest(kBroker, kTxnOffsetCommit, kUnknownMemberId);
  const Status refused = sink_->CommitTransaction({{PartitionId(0), Offset(1)}});
  EXPECT_EQ(refused.code(), StatusCode::kFailedPrecondition) << refused.ToString();
  EXPECT_THAT(refused.message(), ::testing::HasSubstr("no longer counts this member"));
  EXPECT_FALSE(sink_->in_transaction());
  SendOne();
  const Status committed = sink_->CommitTransaction({});
  EXPECT_TRUE(committed.ok()) << committed.ToString();
}

// A commit whose answer comes after the call's timeout may have been made:
// it is asked again, not aborted (an abort would be refused, and deciding
// the records again would publish them twice).
TEST_F(KafkaSinkTest, ACommitThatTimesOutIsAskedAgainNotAborted) {
  SendOne();
  cluster_->FailNextRequest(kBroker, kEndTxn, 0, std::chrono::milliseconds(3000));
  const Status committed = sink_->CommitTransaction({});
  EXPECT_TRUE(committed.ok()) << committed.ToString();
  EXPECT_FALSE(sink_->in_transaction());
}

// A process that stalls (frozen, swapped out) with a transaction open past
// processing.transaction_timeout finds it aborted by the coordinator, which
// fenced the producer's epoch. When the id is a locked slot no other
// process can hold it, so that is all a fence can mean: the records are
// decided again with a new producer, where the stage used to stop.
TEST_F(KafkaSinkTest, ACommitFencedAfterAStallIsDecidedAgainWhenTheIdIsExclusive) {
  CreateSink(/*exclusive_id=*/true);
  SendOne();
  clock_.Advance(kStall);
  cluster_->FailNextRequest(kBroker, kEndTxn, kProducerFenced);
  const Status committed = sink_->CommitTransaction({});
  EXPECT_EQ(committed.code(), StatusCode::kAborted) << committed.ToString();
  EXPECT_FALSE(sink_->in_transaction());
  const Status aborted = sink_->AbortTransaction();  // the pipeline's rollback
  EXPECT_TRUE(aborted.ok()) << aborted.ToString();
  SendOne();
  const Status again = sink_->CommitTransaction({});
  EXPECT_TRUE(again.ok()) << again.ToString();
}

// The chaos test's case: the stalled process's transaction was already to
// be aborted (a message of it refused), and the abort is what finds the
// producer fenced.
TEST_F(KafkaSinkTest, AnAbortFencedAfterAStallStartsANewProducerWhenTheIdIsExclusive) {
  CreateSink(/*exclusive_id=*/true);
  SendOne();
  clock_.Advance(kStall);
  cluster_->FailNextRequest(kBroker, kEndTxn, kProducerFenced);
  const Status aborted = sink_->AbortTransaction();
  ASSERT_TRUE(aborted.ok()) << aborted.ToString();
  EXPECT_FALSE(sink_->in_transaction());
  SendOne();
  const Status committed = sink_->CommitTransaction({});
  EXPECT_TRUE(committed.ok()) << committed.ToString();
}

// Or the fence comes as the transaction's first partition is added: the
// producer fails for good under the messages, and the next one sent is
// refused. Its transaction is aborted by a new producer, which goes on.
TEST_F(KafkaSinkTest, AMessageSentAfterAStallsFenceAbortsTheTransactionWhenTheIdIsExclusive) {
  CreateSink(/*exclusive_id=*/true);
  cluster_->FailNextRequest(kBroker, kAddPartitionsToTxn, kProducerFenced);
  SendAndAwaitReport();
  clock_.Advance(kStall);
  const Status refused = sink_->Send(Verdict(), std::make_shared<pipeline::DeliveryCounter>());
  EXPECT_EQ(refused.code(), StatusCode::kAborted) << refused.ToString();
  const Status aborted = sink_->AbortTransaction();
  ASSERT_TRUE(aborted.ok()) << aborted.ToString();
  SendOne();
  const Status committed = sink_->CommitTransaction({});
  EXPECT_TRUE(committed.ok()) << committed.ToString();
}

// A fence of a transaction younger than the timeout cannot be the
// coordinator's: another producer has this id though the slot's lock said
// none could (two machines with the same host name and state directory).
// Replacing the producer would fence that one in turn; the stage stops.
TEST_F(KafkaSinkTest, AFenceOfAYoungTransactionStopsTheStageEvenWhenTheIdIsExclusive) {
  CreateSink(/*exclusive_id=*/true);
  SendOne();
  clock_.Advance(std::chrono::seconds(1));
  cluster_->FailNextRequest(kBroker, kEndTxn, kProducerFenced);
  const Status committed = sink_->CommitTransaction({});
  EXPECT_EQ(committed.code(), StatusCode::kUnavailable) << committed.ToString();
  EXPECT_EQ(sink_->AbortTransaction().code(), StatusCode::kUnavailable);
}

// A configured id may be on two instances by mistake. Were each to start a
// new producer when fenced, they would fence each other in turn; the stage
// stops and says why.
TEST_F(KafkaSinkTest, AFenceOfAConfiguredIdStopsTheStageAndSaysWhy) {
  SendOne();
  cluster_->FailNextRequest(kBroker, kEndTxn, kProducerFenced);
  const Status committed = sink_->CommitTransaction({});
  EXPECT_EQ(committed.code(), StatusCode::kUnavailable) << committed.ToString();
  EXPECT_NE(committed.message().find("processing.transactional_id or kafka.instance_id"),
            std::string::npos)
      << committed.ToString();
  EXPECT_EQ(sink_->AbortTransaction().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace pagesieve::kafka
