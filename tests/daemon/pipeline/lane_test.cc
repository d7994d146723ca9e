// One lane's protocol, driven by hand without a broker: batches, in-order
// processing, dead letters, and the checkpoint rule (behind acknowledged
// output, behind the changelog). The same code runs every partition of
// pagesieve run and the single lane of pagesieve dedup.
#include "pipeline/lane.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "engine/record_preparer.h"
#include "pipeline/decide_stage.h"
#include "pipeline_fakes.h"
#include "pipeline_test_env.h"
#include "store/changelog.h"

namespace pagesieve::pipeline::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Json = nlohmann::json;

class LaneTest : public PipelineTestBase {
 protected:
  void SetUp() override {
    PipelineTestBase::SetUp();
    preparer_ = std::make_unique<engine::RecordPreparer>(engine_, clock_);
    options_.batch_records = 2;
    options_.batch_linger = std::chrono::milliseconds(50);
    options_.checkpoint = {std::chrono::seconds(1), std::nullopt};
    Open(Offset(0));
  }

  void Open(std::optional<Offset> start) {
    lane_.reset();
    auto shard = OpenShard(PartitionId(2));
    ASSERT_TRUE(shard.ok()) << shard.status().ToString();
    lane_ = std::make_unique<Lane>("pages-2", PartitionId(2), std::move(shard).value(), nullptr,
                                   options_, stage_, clock_);
    if (start) lane_->StartAt(*start);
  }

  // Hands out every ready batch of `lane` and prepares it on the spot with
  // `prepare`; held back instead of delivered when `deliver` is false.
  std::vector<uint64_t> PrepareAll(Lane& lane, const engine::PreparePool::PrepareFn& prepare,
                                   bool deliver = true) {
    std::vector<uint64_t> seqs;
    uint64_t seq = 0;
    while (auto batch = lane.TakeBatch(/*flush=*/true, &seq)) {
      for (const engine::InputRecord& r : batch->records) batch->results.push_back(prepare(r));
      if (deliver) {
        lane.Prepared(seq, std::move(batch));
      } else {
        held_.emplace(seq, std::move(batch));
      }
      seqs.push_back(seq);
    }
    return seqs;
  }
  std::vector<uint64_t> PrepareAll(bool deliver = true) {
    return PrepareAll(
        *lane_, [this](const engine::InputRecord& r) { return preparer_->Prepare(r); }, deliver);
  }

  Status Process() { return lane_->Process(sink_, 1'000'000, counts_); }

  std::unique_ptr<engine::RecordPreparer> preparer_;
  DecideStage stage_{engine_, clock_, format_};
  LaneOptions options_;
  std::unique_ptr<Lane> lane_;
  std::map<uint64_t, std::unique_ptr<engine::PrepareBatch>> held_;
  RecordingSink sink_;
  engine::VerdictCounts counts_;
};

TEST_F(LaneTest, BatchesAreHandedOutWhenFullOrAfterTheLinger) {
  uint64_t seq = 0;
  lane_->Add(Record(0, "https://a.example/0", 0));
  EXPECT_EQ(lane_->TakeBatch(false, &seq), nullptr);  // neither full nor old
  clock_.Advance(std::chrono::milliseconds(50));
  auto old = lane_->TakeBatch(false, &seq);
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->size(), 1u);
  lane_->Add(Record(1, "https://a.example/1", 1));
  lane_->Add(Record(2, "https://a.example/2", 2));
  auto full = lane_->TakeBatch(false, &seq);
  ASSERT_NE(full, nullptr);
  EXPECT_EQ(full->size(), 2u);
  EXPECT_EQ(full->records[0].default_event_id, "pages-2-1");
  EXPECT_EQ(full->records[0].source->offset, Offset(1));
}

// A lane can close (revoked, shut down, failed) while the pool still works
// on one of its batches; the batch must keep the bytes its views point into.
// (Under AddressSanitizer, reading them after the lane is gone is an error.)
TEST_F(LaneTest, ABatchInThePoolKeepsItsRecordsAfterItsLaneCloses) {
  lane_->Add(Record(0, "https://a.example/kept", 0));
  uint64_t seq = 0;
  auto batch = lane_->TakeBatch(/*flush=*/true, &seq);
  ASSERT_NE(batch, nullptr);
  lane_.reset();
  ASSERT_EQ(batch->size(), 1u);
  EXPECT_EQ(batch->records[0].default_event_id, "pages-2-0");
  EXPECT_THAT(std::string(batch->records[0].value), HasSubstr("https://a.example/kept"));
  EXPECT_TRUE(preparer_->Prepare(batch->records[0]).ok());
}

TEST_F(LaneTest, ProcessesInOffsetOrderWhateverOrderBatchesArePreparedIn) {
  for (int i = 0; i < 6; ++i) lane_->Add(Record(i, "https://a.example/" + std::to_string(i), i));
  std::vector<uint64_t> seqs = PrepareAll(/*deliver=*/false);
  ASSERT_EQ(seqs.size(), 3u);
  lane_->Prepared(2, std::move(held_[2]));
  ASSERT_TRUE(Process().ok());
  EXPECT_TRUE(sink_.sent.empty());  // batch 0 is not ready: nothing may be decided
  lane_->Prepared(0, std::move(held_[0]));
  lane_->Prepared(1, std::move(held_[1]));
  ASSERT_TRUE(Process().ok());
  EXPECT_THAT(EventIds(sink_.sent), ElementsAre("e0", "e1", "e2", "e3", "e4", "e5"));
  EXPECT_EQ(lane_->next_offset(), Offset(6));
}

TEST_F(LaneTest, VerdictsGoToTheTopicOfTheirKindWithKeyAndHeaders) {
  lane_->Add(Record(0, "https://a.example/x", 1));
  lane_->Add(Record(1, "https://a.example/x?utm_source=y", 1));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  ASSERT_EQ(sink_.sent.size(), 2u);
  EXPECT_EQ(sink_.sent[0].topic, "u");
  EXPECT_EQ(sink_.sent[1].topic, "d");
  EXPECT_EQ(sink_.sent[1].key, "site");
  EXPECT_THAT(sink_.sent[1].headers,
              ElementsAre(std::pair<std::string, std::string>(kafka::kVerdictHeader, "duplicate"),
                          std::pair<std::string, std::string>(kafka::kTierHeader, "url")));
  Json v = Json::parse(sink_.sent[1].value);
  EXPECT_EQ(v["source"]["partition"], 2);
  EXPECT_EQ(v["source"]["offset"], 1);
}

TEST_F(LaneTest, BadRecordsAreDeadLetteredWithTheirOriginalBytes) {
  SourceRecord bad = Record(0, "https://a.example/", 0);
  bad.value = "not json at all";
  lane_->Add(bad);
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  ASSERT_EQ(sink_.sent.size(), 1u);
  const OutputMessage& m = sink_.sent[0];
  EXPECT_EQ(m.topic, "dlq");
  EXPECT_EQ(m.value, "not json at all");
  EXPECT_EQ(m.key, "site");
  std::map<std::string, std::string> h(m.headers.begin(), m.headers.end());
  EXPECT_EQ(h["trace"], "t0");  // original headers kept
  EXPECT_THAT(h[kafka::kErrorHeader], HasSubstr("not a JSON object"));
  EXPECT_EQ(h[kafka::kSourceTopicHeader], "pages");
  EXPECT_EQ(h[kafka::kSourcePartitionHeader], "2");
  EXPECT_EQ(h[kafka::kSourceOffsetHeader], "0");
  EXPECT_EQ(counts_.dead_letters, 1);
}

TEST_F(LaneTest, CheckpointWaitsUntilEverythingSentIsAcknowledged) {
  lane_->Add(Record(0, "https://a.example/0", 0));
  lane_->Add(Record(1, "https://a.example/1", 1));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  clock_.Advance(std::chrono::seconds(1));
  StatusOr<std::optional<Offset>> early = lane_->MaybeCheckpoint(sink_, false);
  ASSERT_TRUE(early.ok());
  EXPECT_FALSE(early->has_value()) << "checkpointed before acknowledgements";
  sink_.AckAll();
  StatusOr<std::optional<Offset>> done = lane_->MaybeCheckpoint(sink_, false);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(*done, Offset(2));
  // The shard has it: a restart resumes at 2.
  Open(std::nullopt);
  EXPECT_EQ(lane_->checkpointed_offset(), Offset(2));
}

TEST_F(LaneTest, NothingNewIsProcessedWhileACheckpointWaits) {
  lane_->Add(Record(0, "https://a.example/0", 0));
  lane_->Add(Record(1, "https://a.example/1", 1));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  clock_.Advance(std::chrono::seconds(2));  // a checkpoint is due, acks are not in
  lane_->Add(Record(2, "https://a.example/2", 2));
  lane_->Add(Record(3, "https://a.example/3", 3));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  EXPECT_EQ(sink_.sent.size(), 2u);
  sink_.AckAll();
  ASSERT_EQ(*lane_->MaybeCheckpoint(sink_, false), Offset(2));  // exactly the acknowledged prefix
  ASSERT_TRUE(Process().ok());
  EXPECT_EQ(sink_.sent.size(), 4u);
}

TEST_F(LaneTest, ACountPolicyCheckpointsEveryNRecords) {
  options_.checkpoint = {std::nullopt, 3};  // pagesieve dedup's kind of policy
  Open(Offset(0));
  for (int i = 0; i < 4; ++i) lane_->Add(Record(i, "https://a.example/" + std::to_string(i), i));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  EXPECT_EQ(sink_.sent.size(), 4u);  // two batches of two: the first three come and one more
  sink_.AckAll();
  clock_.Advance(std::chrono::hours(1));  // time does not matter to this policy
  EXPECT_EQ(*lane_->MaybeCheckpoint(sink_, false), Offset(4));
  EXPECT_FALSE(lane_->MaybeCheckpoint(sink_, false)->has_value());
}

TEST_F(LaneTest, TheChangelogGetsACheckpointBeforeTheShardDoes) {
  options_.changelog_topic = "changelog";
  Open(Offset(0));
  lane_->Add(Record(0, "https://a.example/0", 0));
  lane_->Add(Record(1, "https://a.example/1", 1));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  sink_.AckAll();  // the two verdicts: log offsets 0 and 1
  clock_.Advance(std::chrono::seconds(1));
  const size_t verdicts = sink_.sent.size();

  StatusOr<std::optional<Offset>> shipping = lane_->MaybeCheckpoint(sink_, false);
  ASSERT_TRUE(shipping.ok()) << shipping.status().ToString();
  EXPECT_FALSE(shipping->has_value()) << "checkpointed before the changelog acknowledged";
  ASSERT_GT(sink_.sent.size(), verdicts);
  for (size_t i = verdicts; i < sink_.sent.size(); ++i) {
    EXPECT_EQ(sink_.sent[i].topic, "changelog");
    EXPECT_EQ(sink_.sent[i].partition, 2);  // the input partition's
  }
  EXPECT_EQ(sink_.sent.back().key, store::ChangelogMarkerKey());
  // While the records travel, nothing new is processed: the shard is theirs.
  lane_->Add(Record(2, "https://a.example/2", 2));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  const size_t shipped = sink_.sent.size();
  EXPECT_FALSE(lane_->Drained());

  sink_.AckAll();
  StatusOr<std::optional<Offset>> done = lane_->MaybeCheckpoint(sink_, false);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(*done, Offset(2));
  EXPECT_EQ(lane_->shard()->changelog_next(), Offset(static_cast<int64_t>(shipped)));
  ASSERT_TRUE(Process().ok());
  EXPECT_EQ(sink_.sent.size(), shipped + 1);  // record 2's verdict, now
}

// Exactly once, a commit's changelog records go out beside the output still
// in flight, without waiting for its acknowledgements: the sink's commit
// waits for both (Sink::CommitTransaction). The shard is checkpointed after
// the commit, where the changelog stands after its records and the
// transaction's marker.
TEST_F(LaneTest, ExactlyOnceTheChangelogGoesOutBesideTheOutputInFlight) {
  options_.changelog_topic = "changelog";
  options_.transactional = true;
  Open(Offset(0));
  lane_->Add(Record(0, "https://a.example/0", 0));
  lane_->Add(Record(1, "https://a.example/1", 1));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  const size_t verdicts = sink_.sent.size();
  ASSERT_EQ(sink_.unacknowledged(), static_cast<int64_t>(verdicts));

  lane_->RequestCommit();
  StatusOr<bool> ready = lane_->PrepareCommit(sink_);
  ASSERT_TRUE(ready.ok()) << ready.status().ToString();
  EXPECT_TRUE(*ready) << "waited for the output's acknowledgements";
  ASSERT_GT(sink_.sent.size(), verdicts) << "no changelog record sent";
  for (size_t i = verdicts; i < sink_.sent.size(); ++i) {
    EXPECT_EQ(sink_.sent[i].topic, "changelog");
  }
  EXPECT_EQ(sink_.sent.back().key, store::ChangelogMarkerKey());
  // The shard cannot say where the changelog stands before it is told.
  EXPECT_EQ(lane_->FinishCommit().code(), StatusCode::kInternal);

  sink_.AckAll();  // what the sink's commit waits for
  ASSERT_TRUE(lane_->FinishCommit().ok());
  EXPECT_EQ(lane_->shard()->checkpointed_offset(), Offset(2));
  // The records took log offsets 0 to sent - 1; the marker follows.
  EXPECT_EQ(lane_->shard()->changelog_next(), Offset(static_cast<int64_t>(sink_.sent.size()) + 1));
}

// An idle lane reads its next checkpoint's share of the expiry sweep ahead
// (Shard::SweepAhead), so that the checkpoint, during which the lane
// decides nothing, reads less: the checkpoint after an idle spell ships the
// dead entries found ahead beside those of its own slice.
TEST_F(LaneTest, AnIdleLaneReadsItsNextCheckpointsSweepAhead) {
  engine_.shard.exact_ttl = std::chrono::hours(1);
  options_.changelog_topic = "changelog";
  lane_.reset();  // SetUp's lane has the shard open
  auto shard = OpenShard(PartitionId(2));
  ASSERT_TRUE(shard.ok()) << shard.status().ToString();
  // More old content entries than two checkpoints' slices (4,096 keys each,
  // plus 4 per write).
  constexpr int kOld = 20'000;
  for (int i = 0; i < kOld; ++i) {
    Digest128 digest;
    std::memcpy(digest.bytes.data(), &i, sizeof(i));
    const store::Origin origin{"old-" + std::to_string(i), "https://old.example/",
                               EventTimeFromMillis(kT0), PartitionId(2), Offset(0)};
    ASSERT_TRUE((*shard)->InsertContent("site", digest, origin).ok());
  }
  lane_ = std::make_unique<Lane>("pages-2", PartitionId(2), std::move(shard).value(), nullptr,
                                 options_, stage_, clock_);
  lane_->StartAt(Offset(0));
  // Decides `offset` (event time kT0 + offset ms).
  auto decide = [&](int64_t offset) {
    lane_->Add(Record(offset, "https://a.example/" + std::to_string(offset), 1));
    PrepareAll();
    EXPECT_TRUE(Process().ok());
    sink_.AckAll();
  };
  // Checkpoints through the changelog; the tombstones shipped.
  auto checkpoint = [&](Offset next) -> size_t {
    clock_.Advance(std::chrono::seconds(1));
    const size_t before = sink_.sent.size();
    for (int round = 0; round < 3; ++round) {
      StatusOr<std::optional<Offset>> done = lane_->MaybeCheckpoint(sink_, false);
      EXPECT_TRUE(done.ok()) << done.status().ToString();
      if (done.ok() && done->has_value()) break;
      sink_.AckAll();
    }
    EXPECT_EQ(lane_->shard()->checkpointed_offset(), next);
    size_t tombstones = 0;
    for (size_t i = before; i < sink_.sent.size(); ++i) {
      tombstones += sink_.sent[i].topic == "changelog" && sink_.sent[i].tombstone;
    }
    return tombstones;
  };
  decide(0);
  // All live: shipped whole, as a snapshot. Its budget covers the 20,000
  // writes, and the reading ahead goes as far.
  EXPECT_EQ(checkpoint(Offset(1)), 0u);
  // Two hours on, every old entry is dead. The round that decides reads 256
  // keys ahead when it runs out of input, and 40 idle rounds as many each.
  decide(7'200'000);
  for (int idle = 0; idle < 40; ++idle) ASSERT_TRUE(Process().ok());
  // The checkpoint's own slice would be 4,096 keys and 4 per write.
  EXPECT_NEAR(static_cast<double>(checkpoint(Offset(7'200'001))), 41 * 256, 16);
}

// A shard checkpointed with the changelog off is shipped whole once the
// changelog is on, even when its partition gets no new record: an idle
// partition would otherwise move without its history.
TEST_F(LaneTest, AnIdleLaneSeedsTheChangelogWithAShardKeptWithoutIt) {
  lane_->Add(Record(0, "https://a.example/0", 0));
  lane_->Add(Record(1, "https://a.example/1", 1));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  sink_.AckAll();
  clock_.Advance(std::chrono::seconds(1));
  ASSERT_EQ(*lane_->MaybeCheckpoint(sink_, false), Offset(2));  // no changelog yet

  options_.changelog_topic = "changelog";
  Open(Offset(2));
  EXPECT_FALSE(lane_->Checkpointed());
  clock_.Advance(std::chrono::seconds(1));
  const size_t verdicts = sink_.sent.size();
  ASSERT_FALSE(lane_->MaybeCheckpoint(sink_, false)->has_value());  // shipping
  ASSERT_GT(sink_.sent.size(), verdicts + 2);
  EXPECT_EQ(sink_.sent[verdicts].key, store::ChangelogSnapshotKey());
  EXPECT_EQ(sink_.sent.back().key, store::ChangelogMarkerKey());
  sink_.AckAll();
  EXPECT_EQ(*lane_->MaybeCheckpoint(sink_, false), Offset(2));
  EXPECT_TRUE(lane_->Checkpointed());

  // Seeded once: an idle lane has nothing more to ship.
  clock_.Advance(std::chrono::seconds(1));
  const size_t seeded = sink_.sent.size();
  EXPECT_FALSE(lane_->MaybeCheckpoint(sink_, false)->has_value());
  EXPECT_EQ(sink_.sent.size(), seeded);
}

TEST_F(LaneTest, AFailedDeliveryStopsTheLaneWithoutCheckpointing) {
  lane_->Add(Record(0, "https://a.example/0", 0));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  sink_.FailNext("Broker: Message size too large");
  StatusOr<std::optional<Offset>> r = lane_->MaybeCheckpoint(sink_, true);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("Message size too large"));
  EXPECT_THAT(r.status().message(), HasSubstr("pages-2"));
  Open(std::nullopt);
  EXPECT_FALSE(lane_->checkpointed_offset().has_value());
}

TEST_F(LaneTest, AFullSinkKeepsProcessedOutputAndSendsItLaterInOrder) {
  for (int i = 0; i < 4; ++i) lane_->Add(Record(i, "https://a.example/" + std::to_string(i), i));
  PrepareAll();
  sink_.set_refuse(true);
  ASSERT_TRUE(Process().ok());
  EXPECT_TRUE(sink_.sent.empty());
  EXPECT_FALSE(lane_->Drained());
  sink_.set_refuse(false);
  ASSERT_TRUE(Process().ok());
  EXPECT_THAT(EventIds(sink_.sent), ElementsAre("e0", "e1", "e2", "e3"));
  sink_.AckAll();
  EXPECT_TRUE(lane_->Drained());
}

TEST_F(LaneTest, StopsProcessingAtTheUnacknowledgedLimit) {
  for (int i = 0; i < 4; ++i) lane_->Add(Record(i, "https://a.example/" + std::to_string(i), i));
  PrepareAll();
  ASSERT_TRUE(lane_->Process(sink_, 2, counts_).ok());
  EXPECT_EQ(sink_.sent.size(), 2u);  // one batch, then the limit
  sink_.AckAll();
  ASSERT_TRUE(lane_->Process(sink_, 2, counts_).ok());
  EXPECT_EQ(sink_.sent.size(), 4u);
}

TEST_F(LaneTest, RecordsBeforeTheStartAreIgnoredAndGapsAccepted) {
  Open(Offset(10));
  EXPECT_FALSE(lane_->Add(Record(8, "https://a.example/8", 8)));  // already decided before
  EXPECT_TRUE(lane_->Add(Record(10, "https://a.example/10", 10)));
  EXPECT_FALSE(lane_->Add(Record(10, "https://a.example/10", 10)));  // once only
  EXPECT_TRUE(lane_->Add(Record(13, "https://a.example/13", 13)));   // 11, 12 compacted away
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  EXPECT_THAT(EventIds(sink_.sent), ElementsAre("e10", "e13"));
  EXPECT_EQ(lane_->next_offset(), Offset(14));
}

TEST_F(LaneTest, PendingBytesCountWhatIsReadButNotProcessed) {
  SourceRecord r = Record(0, "https://a.example/0", 0);
  const size_t size = r.value.size();
  lane_->Add(r);
  EXPECT_EQ(lane_->pending_bytes(), size);
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  EXPECT_EQ(lane_->pending_bytes(), 0u);
}

}  // namespace
}  // namespace pagesieve::pipeline::testing

namespace pagesieve::pipeline::testing {
namespace {

// A stage that decides, and after a round sends one message of its own
// when told; or holds one for the next commit (as routed dedup's stages
// hold their promises).
class SpeakingStage final : public ForwardingStage {
 public:
  using ForwardingStage::ForwardingStage;
  bool stateful() const override { return true; }
  Status AfterProcessing(PartitionId, const LaneRound&, std::vector<OutputMessage>* out) override {
    ++rounds;
    if (speak) out->push_back(OutputMessage{"promises", std::nullopt, "floor", {}, 0, false});
    speak = false;
    return Status::Ok();
  }
  void BeforeCommit(PartitionId, std::vector<OutputMessage>* out) override {
    ++before_commits;
    if (hold) out->push_back(OutputMessage{"promises", std::nullopt, "held", {}, 0, false});
    hold = false;
  }
  bool HoldsOutput(PartitionId) const override { return hold; }
  bool speak = false;
  bool hold = false;
  int rounds = 0;
  int before_commits = 0;
};

class SpeakingLaneTest : public LaneTest {
 protected:
  void SetUp() override {
    LaneTest::SetUp();
    options_.transactional = true;
    lane_.reset();
    lane_ = std::make_unique<Lane>("pages-2", PartitionId(2),
                                   std::move(OpenShard(PartitionId(2))).value(), nullptr,
                                   options_, speaking_, clock_);
    lane_->StartAt(Offset(0));
  }
  // One commit cycle, everything acknowledged.
  void Commit() {
    lane_->RequestCommit();
    for (int i = 0; i < 10; ++i) {
      sink_.AckAll();
      StatusOr<bool> ready = lane_->PrepareCommit(sink_);
      ASSERT_TRUE(ready.ok()) << ready.status().ToString();
      if (*ready) break;
    }
    sink_.AckAll();  // the sink's commit waits for every acknowledgement
    ASSERT_TRUE(lane_->FinishCommit().ok());
  }
  // One record decided and committed: the lane starts checkpointed.
  void CommitOneRecord() {
    ASSERT_TRUE(lane_->Add(Record(0, "https://one.example/a", 1)));
    PrepareAll();
    ASSERT_TRUE(Process().ok());
    Commit();
  }
  SpeakingStage speaking_{stage_};
};

// What a stage sends of its own may rest on state it changed without a
// record (a lifted floor): it makes the lane's next commit checkpoint, and
// nothing is added while a commit waits for what was sent.
TEST_F(SpeakingLaneTest, OutputOfTheStagesOwnIsCheckpointedThoughNoRecordCame) {
  ASSERT_TRUE(lane_->Add(Record(0, "https://one.example/a", 1)));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  ASSERT_TRUE(lane_->AfterProcessing(false).ok());
  Commit();
  EXPECT_TRUE(lane_->Checkpointed());
  EXPECT_FALSE(lane_->progressed());

  speaking_.speak = true;
  ASSERT_TRUE(lane_->AfterProcessing(false).ok());
  EXPECT_TRUE(lane_->progressed()) << "its promise needs a checkpoint";
  EXPECT_FALSE(lane_->Checkpointed());
  ASSERT_TRUE(Process().ok());  // sends it
  ASSERT_EQ(sink_.sent.back().value, "floor");

  lane_->RequestCommit();
  const int rounds = speaking_.rounds;
  speaking_.speak = true;
  ASSERT_TRUE(lane_->AfterProcessing(false).ok());
  EXPECT_EQ(speaking_.rounds, rounds) << "not asked while a commit waits";
  Commit();
  EXPECT_TRUE(lane_->Checkpointed());
  EXPECT_FALSE(lane_->progressed());
}

// What a stage holds for the commit makes the lane worth committing though
// no record came, goes once per transaction, and after the records the
// transaction holds.
TEST_F(SpeakingLaneTest, WhatTheStageHoldsGoesOncePerCommitAfterTheRecords) {
  CommitOneRecord();
  ASSERT_TRUE(lane_->Checkpointed());

  speaking_.hold = true;
  EXPECT_TRUE(lane_->progressed()) << "what it holds needs a commit";
  EXPECT_FALSE(lane_->Checkpointed());
  ASSERT_TRUE(lane_->Add(Record(1, "https://one.example/b", 2)));
  PrepareAll();
  ASSERT_TRUE(Process().ok());
  ASSERT_TRUE(lane_->AfterProcessing(false).ok());
  const size_t verdicts = sink_.sent.size();
  EXPECT_NE(sink_.sent.back().topic, "promises") << "not sent before the commit";

  const int before = speaking_.before_commits;
  lane_->RequestCommit();
  lane_->RequestCommit();  // the pipeline asks every round until it commits
  EXPECT_EQ(speaking_.before_commits, before + 1);
  ASSERT_TRUE(Process().ok());
  ASSERT_EQ(sink_.sent.size(), verdicts + 1);
  EXPECT_EQ(sink_.sent.back().value, "held");
  Commit();
  EXPECT_TRUE(lane_->Checkpointed());
  EXPECT_FALSE(lane_->progressed());
}

// What the stage hands over for the commit is sent by the commit itself,
// inside the transaction it belongs to: a lane with no record to process
// would otherwise send it only at its next round, after the commit (and a
// routed stage's promise would wait a whole checkpoint interval).
TEST_F(SpeakingLaneTest, WhatTheStageHoldsIsSentByTheCommitWithoutAnotherRound) {
  CommitOneRecord();
  ASSERT_TRUE(lane_->Checkpointed());

  speaking_.hold = true;
  lane_->RequestCommit();
  const size_t sent = sink_.sent.size();
  bool ready = false;
  for (int i = 0; i < 10 && !ready; ++i) {
    StatusOr<bool> r = lane_->PrepareCommit(sink_);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ready = *r;
    sink_.AckAll();
  }
  ASSERT_TRUE(ready);
  ASSERT_EQ(sink_.sent.size(), sent + 1) << "sent before the commit is ready";
  EXPECT_EQ(sink_.sent.back().value, "held");
  ASSERT_TRUE(lane_->FinishCommit().ok());
  EXPECT_TRUE(lane_->Checkpointed());
}

}  // namespace
}  // namespace pagesieve::pipeline::testing
