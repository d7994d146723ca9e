// Routed dedup's route stage (daemon/routed/route_stage.h) without a
// broker: what it stamps, where it sends a record, what it promises the URL
// owners (once per transaction), and how an idle partition's floor rises
// with the wall clock.
#include "routed/route_stage.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "pipeline_test_env.h"
#include "routing/message_codec.h"

namespace pagesieve::pipeline::testing {
namespace {

constexpr int32_t kOwners = 4;
constexpr Duration kLateness = std::chrono::minutes(1);
constexpr Duration kIdle = std::chrono::seconds(30);
const PartitionId kP(2);

class RouteStageTest : public PipelineTestBase {
 protected:
  void SetUp() override {
    PipelineTestBase::SetUp();
    kafka_.input_topic = "pages";
    kafka_.routing.enabled = true;
    kafka_.routing.partitions = kOwners;
    kafka_.routing.max_lateness = kLateness;
    kafka_.routing.idle_timeout = kIdle;
    kafka_.routing.url_topic = "g-routed-url";
    stage_ = std::make_unique<routed::RouteStage>(engine_, clock_, kafka_, format_,
                                                  *routing::Ownership::Create(kOwners), nullptr,
                                                  routed::SentCounters(nullptr, nullptr));
    shard_ = std::move(OpenShard(kP)).value();
    ASSERT_TRUE(stage_->LaneOpened(kP, shard_.get()).ok());
  }
  void TearDown() override { stage_->LaneClosed(kP); }

  std::vector<OutputMessage> Route(const SourceRecord& r) {
    StatusOr<engine::PreparedRecord> prepared =
        engine::PreparePool::EventPreparers(engine_, clock_)()(r.AsInput());
    EXPECT_TRUE(prepared.ok()) << prepared.status().ToString();
    std::vector<OutputMessage> out;
    EXPECT_TRUE(stage_->Process(*std::move(prepared), r, shard_.get(), counts_, &out).ok());
    return out;
  }
  // A round of processing: it sends nothing of its own.
  void Round(bool drained = true, bool at_end = false) {
    std::vector<OutputMessage> out;
    EXPECT_TRUE(stage_->AfterProcessing(kP, {at_end, drained}, &out).ok());
    EXPECT_TRUE(out.empty()) << "a round sent " << out.size() << " messages";
  }
  // What a transaction about to commit sends (as the lane asks when the
  // stage holds output, and at every commit).
  std::vector<OutputMessage> Commit() {
    std::vector<OutputMessage> out;
    stage_->BeforeCommit(kP, &out);
    return out;
  }
  std::vector<OutputMessage> RoundAndCommit(bool drained = true) {
    Round(drained);
    return Commit();
  }
  static routing::Message Decode(const OutputMessage& m) {
    StatusOr<routing::Message> message = routing::DecodeMessage(m.value);
    EXPECT_TRUE(message.ok()) << message.status().ToString();
    return message.ok() ? *std::move(message) : routing::Message{};
  }
  // The promise each of `out`'s messages (all of them promises) makes.
  static std::vector<routing::OrderKey> Promises(const std::vector<OutputMessage>& out) {
    std::vector<routing::OrderKey> promises;
    for (const OutputMessage& m : out) {
      const routing::Message message = Decode(m);
      EXPECT_TRUE(std::holds_alternative<routing::Progress>(message));
      if (auto* p = std::get_if<routing::Progress>(&message)) promises.push_back(p->promise);
    }
    return promises;
  }

  kafka::KafkaOptions kafka_;
  std::unique_ptr<routed::RouteStage> stage_;
  std::unique_ptr<store::Shard> shard_;
  engine::VerdictCounts counts_;
};

TEST_F(RouteStageTest, ARecordGoesToTheOwnerOfItsUrlStampedWithItsPlaceInTheOrder) {
  const std::vector<OutputMessage> out = Route(Record(7, "https://a.example/x", 1, kP));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].topic, "g-routed-url");
  const routing::Message m = Decode(out[0]);
  ASSERT_TRUE(std::holds_alternative<routing::RoutedRecord>(m));
  const routing::RoutedRecord& r = std::get<routing::RoutedRecord>(m);
  EXPECT_EQ(r.key, (routing::OrderKey{EventTimeFromMillis(kT0 + 7), "pages", kP, Offset(7)}));
  EXPECT_FALSE(r.late);
  const routing::Ownership owners = *routing::Ownership::Create(kOwners);
  EXPECT_EQ(out[0].partition, owners.OfUrl(r.record.scope, r.record.fingerprints->url).value());
  ASSERT_TRUE(r.record.forwarded.has_value());
  EXPECT_EQ(r.record.forwarded->key, "site");  // for the verdict a later stage publishes
}

// The URL owners read a promise when its transaction commits: the floor at
// the commit says all that a promise per round said, at a round's cost.
TEST_F(RouteStageTest, EachCommitPromisesEveryUrlOwnerTheLatestFloorOnceAndTheEndAtTheEnd) {
  Route(Record(0, "https://a.example/x", 1, kP));
  Round();
  Route(Record(5 * 60'000, "https://a.example/y", 2, kP));
  Round();
  EXPECT_TRUE(stage_->HoldsOutput(kP)) << "a risen floor waits for the commit";
  std::vector<routing::OrderKey> promises = Promises(Commit());
  ASSERT_EQ(promises.size(), static_cast<size_t>(kOwners)) << "one promise per owner, the latest";
  EXPECT_EQ(promises[0].time, EventTimeFromMillis(kT0 + 5 * 60'000) - kLateness);
  EXPECT_FALSE(stage_->HoldsOutput(kP));
  EXPECT_TRUE(RoundAndCommit().empty()) << "the same promise is not sent again";
  Round(/*drained=*/true, /*at_end=*/true);
  EXPECT_TRUE(stage_->HoldsOutput(kP));
  promises = Promises(Commit());
  ASSERT_EQ(promises.size(), static_cast<size_t>(kOwners));
  EXPECT_EQ(promises[0].time, routing::SourceFloor::kEndOfTime);
}

TEST_F(RouteStageTest, ARecordBelowTheFloorIsLateAndOrderedAtTheFloor) {
  Route(Record(10 * 60'000, "https://a.example/x", 1, kP));
  const std::vector<OutputMessage> out = Route(Record(1, "https://a.example/late", 2, kP));
  const routing::RoutedRecord r = std::get<routing::RoutedRecord>(Decode(out[0]));
  EXPECT_TRUE(r.late);
  EXPECT_EQ(r.key.time, EventTimeFromMillis(kT0 + 10 * 60'000) - kLateness);
}

// A live partition with nothing to read: after idle_timeout of wall time its
// floor rises to now less max_lateness, and the shard keeps it.
TEST_F(RouteStageTest, AnIdlePartitionsFloorRisesWithTheWallClockAfterTheIdleTimeout) {
  Route(Record(0, "https://a.example/x", 1, kP));
  RoundAndCommit();
  clock_.Advance(kIdle - std::chrono::seconds(1));
  EXPECT_TRUE(RoundAndCommit().empty()) << "not idle long enough";
  clock_.Advance(std::chrono::seconds(1));
  const std::vector<routing::OrderKey> promises = Promises(RoundAndCommit());
  ASSERT_EQ(promises.size(), static_cast<size_t>(kOwners));
  const EventTime now = EventTime::FromWallClock(clock_.Now());
  EXPECT_EQ(promises[0].time, now - kLateness);
  EXPECT_EQ(shard_->watermark(), now);  // checkpointed with the promise

  // Reopened from that state, it stamps a record fetched before the lifted
  // floor as late: where it arrived.
  ASSERT_TRUE(shard_->Checkpoint(Offset(1)).ok());
  stage_->LaneClosed(kP);
  shard_.reset();
  shard_ = std::move(OpenShard(kP)).value();
  ASSERT_TRUE(stage_->LaneOpened(kP, shard_.get()).ok());
  const std::vector<OutputMessage> out = Route(Record(1, "https://a.example/y", 2, kP));
  const routing::RoutedRecord r = std::get<routing::RoutedRecord>(Decode(out[0]));
  EXPECT_TRUE(r.late);
  EXPECT_EQ(r.key.time, now - kLateness);
}

// A lift each round would give every transaction a promise to send and
// wait for: an idle partition lifts its floor once per idle_timeout.
TEST_F(RouteStageTest, AnIdlePartitionLiftsItsFloorOncePerIdleTimeoutNotEveryRound) {
  Route(Record(0, "https://a.example/x", 1, kP));
  RoundAndCommit();
  clock_.Advance(kIdle);
  ASSERT_EQ(Promises(RoundAndCommit()).size(), static_cast<size_t>(kOwners));
  for (int i = 0; i < 10; ++i) {
    clock_.Advance(std::chrono::seconds(1));
    EXPECT_TRUE(RoundAndCommit().empty()) << "round " << i;
  }
  clock_.Advance(kIdle);
  const std::vector<routing::OrderKey> promises = Promises(RoundAndCommit());
  ASSERT_EQ(promises.size(), static_cast<size_t>(kOwners));
  EXPECT_EQ(promises[0].time, EventTime::FromWallClock(clock_.Now()) - kLateness);
}

TEST_F(RouteStageTest, APartitionWithRecordsWaitingIsNeverIdle) {
  Route(Record(0, "https://a.example/x", 1, kP));
  RoundAndCommit();
  for (int i = 0; i < 4; ++i) {
    clock_.Advance(kIdle);
    EXPECT_TRUE(RoundAndCommit(/*drained=*/false).empty());
  }
  clock_.Advance(kIdle - std::chrono::seconds(1));
  EXPECT_TRUE(RoundAndCommit().empty()) << "idle counts from the last round with records waiting";
}

}  // namespace
}  // namespace pagesieve::pipeline::testing
