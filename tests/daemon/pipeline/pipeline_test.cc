// The record pipeline's loop, driven by a scripted source and a recording
// sink: ordering across lanes, checkpoints and commits behind
// acknowledgements (in any order), rebalances, failures, backpressure, ends
// and shutdown. No broker, no files.
#include "pipeline/pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "metrics/registry.h"
#include "pipeline/decide_stage.h"
#include "pipeline_fakes.h"
#include "pipeline_test_env.h"

namespace pagesieve::pipeline::testing {
namespace {

using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Json = nlohmann::json;

const PartitionId kP1(1), kP2(2);

class PipelineTest : public PipelineTestBase {
 protected:
  void SetUp() override {
    PipelineTestBase::SetUp();
    options_.input_name = "pages";
    options_.threads = 2;
    options_.lane.batch_records = 2;
    options_.lane.batch_linger = Duration(0);
    options_.lane.checkpoint = {std::chrono::seconds(1), std::nullopt};
  }

  void TearDown() override { gated_.Open(); }

  Pipeline& Make() { return Make(stage_); }
  Pipeline& Make(Stage& stage) {
    pipeline_ = std::make_unique<Pipeline>(
        source_, sink_, stage, [this](PartitionId p) { return OpenShard(p); }, options_, clock_);
    return *pipeline_;
  }

  // Steps until `done` holds; fails the test after 2,000 steps (the pool
  // works on real threads, so a few steps may pass before it answers).
  void StepUntil(const std::function<bool()>& done) {
    for (int i = 0; i < 2000 && !done(); ++i) {
      const Status s = pipeline_->Step();
      ASSERT_TRUE(s.ok()) << s.ToString();
    }
    ASSERT_TRUE(done()) << "condition not reached";
  }
  void StepUntilSent(size_t n) {
    StepUntil([&] { return sink_.sent.size() >= n; });
  }
  // Messages sent for partition `p`'s input, in the order they were sent.
  std::vector<std::string> SentFor(PartitionId p) const {
    std::vector<OutputMessage> mine;
    for (const OutputMessage& m : sink_.sent) {
      Json j = Json::parse(m.value, nullptr, false);
      if (!j.is_discarded() && j.contains("source") && j["source"]["partition"] == p.value()) {
        mine.push_back(m);
      }
    }
    return EventIds(mine);
  }
  // Bytes the lanes hold undecided (what decides whether Step waits long).
  size_t PendingBytes() const {
    size_t pending = 0;
    for (const Pipeline::LaneInfo& lane : pipeline_->lanes()) pending += lane.pending_bytes;
    return pending;
  }
  // What Poll was told to wait while records were undecided.
  std::vector<Duration> WaitsWhileBusy() const {
    std::vector<Duration> waits;
    for (const auto& [wait, pending] : source_.waits) {
      if (pending > 0) waits.push_back(wait);
    }
    return waits;
  }
  void Push(PartitionId p, int64_t offset, const std::string& url, int seed) {
    source_.Push(p, Offset(offset), EventJson(offset, url, seed));
  }
  // Exactly once: one record of partition 2 decided and sent, in the open
  // transaction.
  void MakeExactlyOnceWithOneRecordSent() {
    options_.lane.transactional = true;
    sink_.set_transactional(true);
    Make();
    source_.Assign(kP2);
    Push(kP2, 0, "https://two.example/a", 1);
    StepUntilSent(1);
  }
  // Steps until the run stops, at most ten steps; why it stopped.
  Status StepUntilStopped() {
    Status failed;
    for (int i = 0; i < 10 && failed.ok(); ++i) failed = pipeline_->Step();
    return failed;
  }
  // Exactly once, acknowledged at once: two lanes, one record each,
  // committed in the first transaction.
  void MakeCommittedTwoLanes() {
    options_.lane.transactional = true;
    sink_.set_transactional(true);
    sink_.set_auto_ack(true);
    Make();
    source_.Assign(kP1);
    source_.Assign(kP2);
    Push(kP1, 0, "https://one.example/a", 1);
    Push(kP2, 0, "https://two.example/a", 2);
    StepUntilSent(2);
    clock_.Advance(std::chrono::seconds(2));
    StepUntil([&] { return sink_.commits.size() == 1; });
  }

  DecideStage stage_{engine_, clock_, format_};
  // The same stage behind a gate (Make(gated_)): opened at the latest when
  // the test ends, so that the pool's workers can finish.
  GatedStage gated_{stage_};
  PipelineOptions options_;
  ScriptedSource source_;
  RecordingSink sink_;
  std::unique_ptr<Pipeline> pipeline_;
};

TEST_F(PipelineTest, EachPartitionIsDecidedInOrderAndCommittedOnlyBehindAcknowledgements) {
  Make();
  source_.Assign(kP1);
  source_.Assign(kP2);
  for (int i = 0; i < 5; ++i) {
    Push(kP1, i, "https://one.example/" + std::to_string(i), i);
    Push(kP2, i, "https://two.example/" + std::to_string(i), 10 + i);
  }
  StepUntilSent(10);
  EXPECT_THAT(SentFor(kP1), ElementsAre("e0", "e1", "e2", "e3", "e4"));
  EXPECT_THAT(SentFor(kP2), ElementsAre("e0", "e1", "e2", "e3", "e4"));
  clock_.Advance(std::chrono::seconds(2));  // checkpoints are due
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(pipeline_->Step().ok());
  EXPECT_TRUE(source_.committed.empty()) << "committed before the sink acknowledged";
  sink_.AckAll();
  StepUntil([&] { return source_.committed.size() == 2; });
  EXPECT_EQ(source_.committed[kP1], Offset(5));
  EXPECT_EQ(source_.committed[kP2], Offset(5));
}

TEST_F(PipelineTest, AcknowledgementsOutOfOrderCheckpointNothingUntilAllAreIn) {
  Make();
  source_.Assign(kP2);
  for (int i = 0; i < 4; ++i) Push(kP2, i, "https://two.example/" + std::to_string(i), i);
  StepUntilSent(4);
  clock_.Advance(std::chrono::seconds(2));
  sink_.AckNewest();  // the last verdict is in, the first three are not
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(pipeline_->Step().ok());
  EXPECT_TRUE(source_.committed.empty()) << "checkpointed past unacknowledged output";
  sink_.AckNewestFirst();
  StepUntil([&] { return source_.committed.count(kP2) > 0; });
  EXPECT_EQ(source_.committed[kP2], Offset(4));
}

TEST_F(PipelineTest, ARevokedPartitionIsFinishedAndCommittedAndItsNextOwnerGoesOn) {
  sink_.set_auto_ack(true);
  Make();
  source_.Assign(kP2);
  Push(kP2, 0, "https://two.example/a", 1);
  Push(kP2, 1, "https://two.example/b", 2);
  Push(kP2, 2, "https://two.example/c", 3);
  StepUntil([&] { return !sink_.sent.empty(); });
  source_.Revoke(kP2);  // possibly with records still at the pool
  StepUntil([&] { return source_.revoke_drained.count(kP2) > 0; });
  EXPECT_TRUE(source_.revoke_drained[kP2]);
  EXPECT_THAT(SentFor(kP2), ElementsAre("e0", "e1", "e2"));
  EXPECT_EQ(source_.committed[kP2], Offset(3));
  EXPECT_GE(source_.sync_commits[kP2], 1) << "a revocation commits synchronously";
  EXPECT_FALSE(pipeline_->IsOpen(kP2));

  // The partition comes back (to this instance, as to any owner with the
  // state): it resumes at the checkpoint, and the state is all there.
  source_.Assign(kP2);
  Push(kP2, 3, "https://two.example/a?utm_source=x", 1);
  StepUntilSent(4);
  Json v = Json::parse(sink_.sent.back().value);
  EXPECT_EQ(v["verdict"], "duplicate");
  EXPECT_EQ(v["duplicate_of"]["event_id"], "e0");
}

TEST_F(PipelineTest, ALostPartitionIsDroppedAndDecidedAgainTheSameWay) {
  Make();
  source_.Assign(kP2);
  Push(kP2, 0, "https://two.example/a", 1);
  Push(kP2, 1, "https://two.example/b", 1);  // an exact duplicate of e0
  StepUntilSent(2);
  const std::vector<OutputMessage> first = sink_.sent;
  source_.Lose(kP2);  // before anything was acknowledged or checkpointed
  ASSERT_TRUE(pipeline_->Step().ok());
  EXPECT_FALSE(pipeline_->IsOpen(kP2));
  EXPECT_TRUE(source_.committed.empty());

  // Whoever owns it next (here: this instance again) starts from the last
  // checkpoint, which covers nothing: both records are decided again, to
  // the same verdicts.
  sink_.sent.clear();
  source_.Assign(kP2);
  Push(kP2, 0, "https://two.example/a", 1);
  Push(kP2, 1, "https://two.example/b", 1);
  StepUntilSent(2);
  ASSERT_EQ(sink_.sent.size(), 2u);
  EXPECT_EQ(sink_.sent[0].value, first[0].value);
  EXPECT_EQ(sink_.sent[1].value, first[1].value);
}

TEST_F(PipelineTest, OutputGoesAtOnceWhenNothingMoreIsComing) {
  // A sink batches what it is given while more is coming (librdkafka's
  // linger); once the lanes have decided everything they read, the last
  // verdicts must not wait for a batch that will not fill.
  Make();
  source_.Assign(kP1);
  for (int i = 0; i < 3; ++i) Push(kP1, i, "https://one.example/" + std::to_string(i), i);
  StepUntilSent(3);
  ASSERT_TRUE(pipeline_->Step().ok());
  EXPECT_GT(sink_.send_nows, 0);
  EXPECT_EQ(sink_.sent_at_last_send_now, 3u);
}

// A Kafka source wakes when the pool hands a batch back: while records are
// at the pool the pipeline waits for both in one Poll, not a millisecond at
// a time (at 50 pages/s those polls were 15 wake-ups per page).
TEST_F(PipelineTest, AWakeableSourceWaitsForThePoolInOnePollAndThePoolWakesIt) {
  source_.MakeWakeable();
  Make(gated_);
  source_.pending_bytes = [this] { return PendingBytes(); };
  source_.Assign(kP1);
  for (int i = 0; i < 6; ++i) Push(kP1, i, "https://one.example/" + std::to_string(i), i);
  ASSERT_TRUE(pipeline_->Step().ok());  // reads them: three batches at the pool
  ASSERT_TRUE(pipeline_->Step().ok());  // the pool holds them: one long wait
  ASSERT_FALSE(WaitsWhileBusy().empty());
  EXPECT_EQ(WaitsWhileBusy().back(), options_.idle_wait);
  gated_.Open();
  StepUntilSent(6);
  EXPECT_THAT(WaitsWhileBusy(), Each(options_.idle_wait));
  EXPECT_GE(source_.wakes.load(), 3) << "one wake-up per batch of two";
}

TEST_F(PipelineTest, ASourceThatCannotBeWokenIsPolledBrieflyWhileRecordsAreAtThePool) {
  Make(gated_);
  source_.pending_bytes = [this] { return PendingBytes(); };
  source_.Assign(kP1);
  for (int i = 0; i < 6; ++i) Push(kP1, i, "https://one.example/" + std::to_string(i), i);
  ASSERT_TRUE(pipeline_->Step().ok());
  ASSERT_TRUE(pipeline_->Step().ok());
  ASSERT_FALSE(WaitsWhileBusy().empty());
  EXPECT_EQ(WaitsWhileBusy().back(), options_.busy_wait);
  gated_.Open();
  StepUntilSent(6);
  EXPECT_THAT(WaitsWhileBusy(), Each(options_.busy_wait));
}

// An open batch goes to the pool when its linger ends, whether or not
// anything else happens: the wait ends there.
TEST_F(PipelineTest, AWakeableSourceWaitsNoLongerThanAnOpenBatchLingers) {
  options_.lane.batch_linger = std::chrono::milliseconds(10);
  source_.MakeWakeable();
  Make();
  source_.pending_bytes = [this] { return PendingBytes(); };
  source_.Assign(kP1);
  Push(kP1, 0, "https://one.example/a", 1);
  ASSERT_TRUE(pipeline_->Step().ok());  // reads the record: its batch is open
  ASSERT_TRUE(pipeline_->Step().ok());
  EXPECT_EQ(source_.waits.back().first, std::chrono::milliseconds(10));
  clock_.Advance(std::chrono::milliseconds(4));
  ASSERT_TRUE(pipeline_->Step().ok());
  EXPECT_EQ(source_.waits.back().first, std::chrono::milliseconds(6));
  EXPECT_TRUE(sink_.sent.empty());
  clock_.Advance(std::chrono::milliseconds(6));
  StepUntilSent(1);
}

// The commit waits for output the sink turned away (its queue was full),
// and has the sink send at once what it holds rather than at its linger.
TEST_F(PipelineTest, ACommitWaitingForRefusedOutputHasTheSinkSendAtOnce) {
  options_.lane.transactional = true;
  sink_.set_transactional(true);
  Make();
  source_.Assign(kP1);
  for (int i = 0; i < 3; ++i) Push(kP1, i, "https://one.example/" + std::to_string(i), i);
  StepUntilSent(3);
  sink_.set_refuse(true);  // the producer's queue is full
  for (int i = 3; i < 6; ++i) Push(kP1, i, "https://one.example/" + std::to_string(i), i);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(pipeline_->Step().ok());
  clock_.Advance(std::chrono::seconds(2));  // the commit is due, three verdicts unsent
  const int before = sink_.send_nows;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(pipeline_->Step().ok());
  EXPECT_GT(sink_.send_nows, before);
  EXPECT_TRUE(sink_.commits.empty()) << "committed without all of its output";
  sink_.set_refuse(false);
  StepUntil([&] { return !sink_.commits.empty(); });
  // The transaction holds the verdict of every record it commits.
  EXPECT_GT(sink_.sent.size(), 3u);
  const Offset all(static_cast<int64_t>(sink_.sent.size()));
  EXPECT_EQ(sink_.commits[0], (std::map<PartitionId, Offset>{{kP1, all}}));
}

// The pipeline does not wait for the acknowledgements before it commits:
// the sink's commit does (Sink::CommitTransaction), while the input
// offsets join the transaction. A commit used to wait for the output's
// acknowledgements, then for the changelog's, then for the offsets and the
// end, one after the other (issue 22: the tail latency).
TEST_F(PipelineTest, ExactlyOnceCommitsEveryLaneInOneTransactionWithoutWaitingForAcknowledgements) {
  options_.lane.transactional = true;
  sink_.set_transactional(true);
  metrics::Registry registry;
  metrics::Histogram& commit_time =
      registry.AddHistogram("commit_seconds", "Commits.", {}, {0.1, 1}).Get();
  options_.commit_time = &commit_time;
  Make();
  source_.Assign(kP1);
  source_.Assign(kP2);
  for (int i = 0; i < 3; ++i) {
    Push(kP1, i, "https://one.example/" + std::to_string(i), i);
    Push(kP2, i, "https://two.example/" + std::to_string(i), 10 + i);
  }
  StepUntilSent(6);
  ASSERT_EQ(sink_.unacknowledged(), 6);
  // The acknowledgements take their time, inside the sink's commit.
  sink_.on_commit = [this] { clock_.Advance(std::chrono::milliseconds(300)); };
  clock_.Advance(std::chrono::seconds(2));  // the commit is due
  ASSERT_TRUE(pipeline_->Step().ok());
  ASSERT_EQ(sink_.commits.size(), 1u) << "the commit waited for acknowledgements first";
  EXPECT_EQ(sink_.commits[0], (std::map<PartitionId, Offset>{{kP1, Offset(3)}, {kP2, Offset(3)}}));
  EXPECT_EQ(sink_.unacknowledged(), 0);
  EXPECT_TRUE(source_.committed.empty()) << "offsets committed outside the transaction";
  // The commit stood from its start to the acknowledgements and is timed so.
  const prometheus::ClientMetric::Histogram timed = commit_time.Collect().histogram;
  EXPECT_EQ(timed.sample_count, 1u);
  EXPECT_DOUBLE_EQ(timed.sample_sum, 0.3);
}

// A message that fails while the commit waits for it aborts the
// transaction and the records are decided again; one that no retry mends
// stops the run, as when the failure comes before the commit.
TEST_F(PipelineTest, ExactlyOnceAFailureDuringTheCommitRollsBackOrStopsTheRun) {
  MakeExactlyOnceWithOneRecordSent();
  sink_.FailDuringNextCommit("Broker: Request timed out");
  clock_.Advance(std::chrono::seconds(2));
  StepUntil([&] { return source_.rewound.count(kP2) > 0; });
  EXPECT_EQ(sink_.aborts, 1);
  EXPECT_EQ(source_.rewound[kP2], Offset(0));
  Push(kP2, 0, "https://two.example/a", 1);
  StepUntilSent(2);
  sink_.FailDuringNextCommit("Broker: Message size too large", /*permanent=*/true);
  clock_.Advance(std::chrono::seconds(2));
  const Status failed = StepUntilStopped();
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.code(), StatusCode::kUnavailable);
  EXPECT_THAT(failed.message(), HasSubstr("pages-2"));
  EXPECT_THAT(failed.message(), HasSubstr("Message size too large"));
  EXPECT_EQ(sink_.aborts, 2);
  EXPECT_TRUE(sink_.commits.empty());
}

TEST_F(PipelineTest, AnAbortedTransactionTakesEveryLaneBackToItsLastCheckpoint) {
  MakeCommittedTwoLanes();
  // Two more records each, then the coordinator refuses the commit.
  Push(kP1, 1, "https://one.example/b", 3);
  Push(kP2, 1, "https://two.example/b", 2);  // an exact duplicate of two's e0
  StepUntilSent(4);
  const std::vector<OutputMessage> aborted(sink_.sent.begin() + 2, sink_.sent.end());
  sink_.RefuseNextCommit();
  clock_.Advance(std::chrono::seconds(2));
  StepUntil([&] { return source_.rewound.size() == 2; });
  EXPECT_EQ(sink_.aborts, 1);
  // Both lanes, not only one, read again from their last checkpoint.
  EXPECT_EQ(source_.rewound[kP1], Offset(1));
  EXPECT_EQ(source_.rewound[kP2], Offset(1));
  EXPECT_TRUE(pipeline_->IsOpen(kP1) && pipeline_->IsOpen(kP2));
  // Read again, the records get the verdicts they got in the aborted
  // transaction, and the next commit carries them.
  Push(kP1, 1, "https://one.example/b", 3);
  Push(kP2, 1, "https://two.example/b", 2);
  StepUntilSent(6);
  // The two lanes decide side by side, so their verdicts may come in either
  // order; each must be the one its record got before.
  std::vector<std::string> before, again;
  for (const OutputMessage& m : aborted) before.push_back(m.value);
  for (size_t i = 4; i < sink_.sent.size(); ++i) again.push_back(sink_.sent[i].value);
  EXPECT_THAT(again, ::testing::UnorderedElementsAreArray(before));
  clock_.Advance(std::chrono::seconds(2));
  StepUntil([&] { return sink_.commits.size() == 2; });
  EXPECT_EQ(sink_.commits[1], (std::map<PartitionId, Offset>{{kP1, Offset(2)}, {kP2, Offset(2)}}));
}

TEST_F(PipelineTest, AShutdownWhoseTransactionFailsDecidesAgainAndCommitsWhatItDecided) {
  source_.ReplayOnRewind();
  MakeCommittedTwoLanes();
  Push(kP1, 1, "https://one.example/b", 3);
  Push(kP2, 1, "https://two.example/b", 2);
  StepUntilSent(4);
  std::vector<std::string> before;
  for (size_t i = 2; i < sink_.sent.size(); ++i) before.push_back(sink_.sent[i].value);
  // The stop comes as the transaction fails (its records timed out while
  // the broker was away): the commit is refused.
  sink_.RefuseNextCommit();
  const Status s = pipeline_->Shutdown(std::chrono::minutes(1));
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(sink_.aborts, 1);
  EXPECT_EQ(source_.rewound[kP1], Offset(1));
  EXPECT_EQ(source_.rewound[kP2], Offset(1));
  // Decided again, the same verdicts, committed with both lanes' offsets.
  std::vector<std::string> again;
  for (size_t i = 4; i < sink_.sent.size(); ++i) again.push_back(sink_.sent[i].value);
  EXPECT_THAT(again, ::testing::UnorderedElementsAreArray(before));
  ASSERT_EQ(sink_.commits.size(), 2u);
  EXPECT_EQ(sink_.commits[1], (std::map<PartitionId, Offset>{{kP1, Offset(2)}, {kP2, Offset(2)}}));
  EXPECT_TRUE(source_.paused.count(kP1) && source_.paused.count(kP2)) << "reading stops again";
}

TEST_F(PipelineTest, AShutdownWhoseTransactionFailsWithNoTimeLeftSaysSo) {
  options_.lane.transactional = true;
  sink_.set_transactional(true);
  sink_.set_auto_ack(true);
  Make();
  source_.Assign(kP1);
  Push(kP1, 0, "https://one.example/a", 1);
  StepUntilSent(1);
  sink_.RefuseNextCommit();
  const Status s = pipeline_->Shutdown(Duration(0));
  EXPECT_EQ(s.code(), StatusCode::kAborted);
  EXPECT_THAT(s.message(), HasSubstr("the coordinator refused the offsets"));
  EXPECT_TRUE(sink_.commits.empty());
}

// A running stage whose member the group forgot (the coordinator restarted)
// rolls back and decides again, as for any refused commit: the consumer
// rejoins meanwhile, and a later commit goes through.
TEST_F(PipelineTest, ACommitRefusedForAForgottenMemberRollsBackWhileRunning) {
  MakeExactlyOnceWithOneRecordSent();
  sink_.set_auto_ack(true);
  sink_.set_member_gone(true);
  clock_.Advance(std::chrono::seconds(2));
  StepUntil([&] { return source_.rewound.count(kP2) > 0; });
  EXPECT_EQ(sink_.aborts, 1);
  sink_.set_member_gone(false);  // rejoined
  Push(kP2, 0, "https://two.example/a", 1);
  StepUntilSent(2);
  clock_.Advance(std::chrono::seconds(2));
  StepUntil([&] { return sink_.commits.size() == 1; });
  EXPECT_EQ(sink_.commits[0], (std::map<PartitionId, Offset>{{kP2, Offset(1)}}));
}

// A stop whose last commit the group refuses because it no longer counts
// the member: the partitions are already someone else's and no retry can
// commit, so the stage aborts and stops cleanly at once, where it used to
// decide again and retry until its deadline and exit with an error.
TEST_F(PipelineTest, AShutdownRefusedForAForgottenMemberAbortsAndStopsCleanly) {
  source_.ReplayOnRewind();
  MakeCommittedTwoLanes();
  Push(kP1, 1, "https://one.example/b", 3);
  StepUntilSent(3);
  sink_.set_member_gone(true);
  sink_.on_commit = [this] { clock_.Advance(std::chrono::seconds(10)); };
  const Status s = pipeline_->Shutdown(std::chrono::minutes(1));
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(sink_.aborts, 1) << "retried a commit that cannot succeed";
  EXPECT_EQ(sink_.commits.size(), 1u);
  EXPECT_TRUE(source_.rewound.empty()) << "decided again for partitions it no longer owns";
  EXPECT_FALSE(sink_.in_transaction());
}

TEST_F(PipelineTest, AFailedDeliveryStopsTheRunAndNamesThePartition) {
  Make();
  source_.Assign(kP2);
  Push(kP2, 0, "https://two.example/a", 1);
  StepUntilSent(1);
  sink_.FailNext("Broker: Message size too large");
  clock_.Advance(std::chrono::seconds(2));
  Status failed;
  for (int i = 0; i < 10 && failed.ok(); ++i) failed = pipeline_->Step();
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(failed.message(), HasSubstr("pages-2"));
  EXPECT_THAT(failed.message(), HasSubstr("Message size too large"));
  EXPECT_TRUE(source_.committed.empty());
}

// Exactly once, a delivery failure aborts the transaction and the records
// are decided again, unless deciding again must fail the same way (a
// verdict larger than its topic takes): that stops the run, as at least
// once, where it used to abort and retry without end.
TEST_F(PipelineTest, ExactlyOnceADeliveryNoRetryMendsStopsTheRunAndAnotherRollsBack) {
  MakeExactlyOnceWithOneRecordSent();
  sink_.FailNext("Broker: Request timed out");
  clock_.Advance(std::chrono::seconds(2));
  StepUntil([&] { return sink_.aborts == 1; });
  EXPECT_EQ(source_.rewound[kP2], Offset(0));
  Push(kP2, 0, "https://two.example/a", 1);
  StepUntilSent(2);
  sink_.FailNext("Broker: Message size too large", /*permanent=*/true);
  clock_.Advance(std::chrono::seconds(2));
  const Status failed = StepUntilStopped();
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(failed.message(), HasSubstr("pages-2"));
  EXPECT_THAT(failed.message(), HasSubstr("Message size too large"));
  EXPECT_EQ(sink_.aborts, 1);
  EXPECT_TRUE(sink_.commits.empty());
}

TEST_F(PipelineTest, BackpressurePausesAboveTheBoundAndResumesBelowHalf) {
  options_.max_unacknowledged = 3;
  Make();
  source_.Assign(kP2);
  for (int i = 0; i < 8; ++i) Push(kP2, i, "https://two.example/" + std::to_string(i), i);
  // Two batches of two go out and are not acknowledged: over the bound.
  StepUntil([&] { return source_.paused.count(kP2) > 0; });
  EXPECT_EQ(sink_.sent.size(), 4u) << "processing stops at the bound too";
  sink_.set_auto_ack(true);  // below half of it: reading resumes
  StepUntil([&] { return source_.paused.empty(); });
  StepUntilSent(8);
}

TEST_F(PipelineTest, LanesAtTheirEndAreCheckpointedCommittedAndFinished) {
  sink_.set_auto_ack(true);
  Make();
  source_.Assign(kP1);
  source_.Assign(kP2);
  Push(kP1, 0, "https://one.example/a", 1);
  Push(kP2, 0, "https://two.example/a", 2);
  Push(kP2, 1, "https://two.example/b", 3);
  source_.SetEnd(kP1, Offset(1));
  source_.SetEnd(kP2, Offset(2));
  StepUntil([&] { return pipeline_->Done(); });
  EXPECT_EQ(source_.committed[kP1], Offset(1));
  EXPECT_EQ(source_.committed[kP2], Offset(2));
  EXPECT_GE(source_.sync_commits[kP2], 1);
  EXPECT_FALSE(pipeline_->IsOpen(kP1));
  EXPECT_EQ(pipeline_->counts().records, 3);
}

TEST_F(PipelineTest, ShutdownFinishesWhatWasReadOrSaysWhichPartitionItCouldNot) {
  Make();
  source_.Assign(kP2);
  Push(kP2, 0, "https://two.example/a", 1);
  Push(kP2, 1, "https://two.example/b", 2);
  ASSERT_TRUE(pipeline_->Step().ok());
  // Nothing is acknowledged: the shutdown cannot checkpoint, and says so.
  Status s = pipeline_->Shutdown(Duration(0));
  EXPECT_EQ(s.code(), StatusCode::kDeadlineExceeded);
  EXPECT_THAT(s.message(), HasSubstr("pages-2"));
  EXPECT_TRUE(source_.committed.empty());
  EXPECT_TRUE(source_.paused.count(kP2)) << "reading stops first";

  // The next start decides them again, and this time the sink answers.
  pipeline_.reset();
  sink_.set_auto_ack(true);
  source_.paused.clear();
  Make();
  source_.Assign(kP2);
  Push(kP2, 0, "https://two.example/a", 1);
  Push(kP2, 1, "https://two.example/b", 2);
  ASSERT_TRUE(pipeline_->Step().ok());
  EXPECT_TRUE(pipeline_->Shutdown(std::chrono::minutes(1)).ok());
  EXPECT_EQ(source_.committed[kP2], Offset(2));
}

}  // namespace
}  // namespace pagesieve::pipeline::testing
