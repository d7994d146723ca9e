// The re-keying stage's lanes: republishing by scope behind
// acknowledgements, and verdicts equal to deciding the input directly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "engine/record_preparer.h"
#include "engine/repartition_record.h"
#include "pipeline/decide_stage.h"
#include "pipeline/lane.h"
#include "pipeline_fakes.h"
#include "pipeline_test_env.h"
#include "run/rekey_stage.h"

namespace pagesieve::pipeline::testing {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// Hands out every batch of `lane` and prepares it on the spot with `prepare`.
void PrepareAll(Lane& lane, const engine::PreparePool::PrepareFn& prepare) {
  uint64_t seq = 0;
  while (auto batch = lane.TakeBatch(/*flush=*/true, &seq)) {
    for (const engine::InputRecord& r : batch->records) batch->results.push_back(prepare(r));
    lane.Prepared(seq, std::move(batch));
  }
}

// The stream of the re-keying tests: url, exact and near duplicates, a bad
// record, a skipped one, one without a key, and HTML bodies to forward.
std::vector<SourceRecord> RekeyStream() {
  std::vector<SourceRecord> records = {
      Record(0, "https://a.example/x", 1),
      Record(1, "https://a.example/x?utm_source=y", 1),  // url duplicate
      Record(2, "https://a.example/y", 1),               // exact duplicate
      Record(3, "https://a.example/bad", 0),
      Record(4, "https://a.example/gone", 2),
      Record(5, "https://a.example/z", 3),
      Record(6, "https://a.example/html", 4),
  };
  records[3].value = "not json at all";
  records[4].value =
      Json{{"url", "https://a.example/gone"}, {"fetched_at", kT0 + 4}, {"status", 404}}.dump();
  records[5].key.reset();
  records[6].value = Json{
      {"url", "https://a.example/html"},
      {"fetched_at", kT0 + 6},
      {"body", "<html><body><p>" + Article(4) + "</p></body></html>"},
      {"event_id", "e6"}}.dump();
  return records;
}

class RekeyLaneTest : public PipelineTestBase {
 protected:
  void SetUp() override {
    PipelineTestBase::SetUp();
    preparer_ = std::make_unique<engine::RecordPreparer>(engine_, clock_);
    options_.batch_records = 2;
  }

  kafka::KafkaOptions Kafka(bool include_body) {
    kafka::KafkaOptions k;
    k.rekey.topic = "repartition";
    k.output = {"u", "d", "s", "dlq", include_body};
    return k;
  }

  std::unique_ptr<engine::RecordPreparer> preparer_;
  LaneOptions options_;
  RecordingSink sink_;
  engine::VerdictCounts counts_;
};

TEST_F(RekeyLaneTest, TheReKeyingStageRepublishesByScopeAndCommitsBehindAcknowledgements) {
  const kafka::KafkaOptions kafka = Kafka(false);
  run::RekeyStage stage(engine_, clock_, kafka);
  Lane rekey("pages-2", PartitionId(2), nullptr, nullptr, options_, stage, clock_);
  rekey.StartAt(Offset(0));
  ASSERT_EQ(rekey.shard(), nullptr);
  for (SourceRecord& r : RekeyStream()) rekey.Add(std::move(r));
  PrepareAll(rekey, [this](const engine::InputRecord& r) { return preparer_->Prepare(r); });
  ASSERT_TRUE(rekey.Process(sink_, 1'000'000, counts_).ok());
  ASSERT_EQ(sink_.sent.size(), 7u);
  EXPECT_EQ(sink_.sent[3].topic, "dlq");  // bad records are dead-lettered here, not forwarded
  for (size_t i : {0, 1, 2, 4, 5, 6}) {
    const OutputMessage& m = sink_.sent[i];
    EXPECT_EQ(m.topic, "repartition");
    EXPECT_EQ(m.key, "a.example");  // the scope
    StatusOr<engine::PreparedRecord> r = engine::DecodeRepartitionRecord(m.value);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->offset, Offset(static_cast<int64_t>(i)));
    EXPECT_EQ(r->source->topic, "pages");
  }
  EXPECT_EQ(counts_.rekeyed, 6);
  EXPECT_EQ(counts_.dead_letters, 1);
  // No shard: the "checkpoint" is the offset to commit, once acknowledged.
  StatusOr<std::optional<Offset>> early = rekey.MaybeCheckpoint(sink_, true);
  ASSERT_TRUE(early.ok());
  EXPECT_FALSE(early->has_value());
  sink_.AckAll();
  StatusOr<std::optional<Offset>> done = rekey.MaybeCheckpoint(sink_, true);
  ASSERT_TRUE(done.ok()) << done.status().ToString();
  EXPECT_EQ(*done, Offset(7));
}

// Re-keying and deciding from the repartition topic must publish what
// deciding the input directly publishes: same topics, keys, headers and
// verdict bytes, including the original source and the forwarded body.
TEST_F(RekeyLaneTest, ReKeyedRecordsGetTheVerdictsOfTheInputDecidedDirectly) {
  const kafka::KafkaOptions kafka = Kafka(true);
  const kafka::KafkaFormat format(kafka.output, "body", "body_base64");
  DecideStage direct_stage(engine_, clock_, format);
  auto shard = OpenShard(PartitionId(2));
  ASSERT_TRUE(shard.ok());
  Lane direct("pages-2", PartitionId(2), std::move(shard).value(), nullptr, options_, direct_stage,
              clock_);
  for (SourceRecord& r : RekeyStream()) direct.Add(std::move(r));
  PrepareAll(direct, [this](const engine::InputRecord& r) { return preparer_->Prepare(r); });
  RecordingSink direct_sink;
  ASSERT_TRUE(direct.Process(direct_sink, 1'000'000, counts_).ok());

  run::RekeyStage rekey_stage(engine_, clock_, kafka);
  Lane rekey("pages-2", PartitionId(2), nullptr, nullptr, options_, rekey_stage, clock_);
  RecordingSink repartition;
  for (SourceRecord& r : RekeyStream()) rekey.Add(std::move(r));
  PrepareAll(rekey, [this](const engine::InputRecord& r) { return preparer_->Prepare(r); });
  ASSERT_TRUE(rekey.Process(repartition, 1'000'000, counts_).ok());

  DecideStage rekeyed_stage(engine_, clock_, format, DecideStage::Input::kRepartitionRecords);
  auto repartition_shard = OpenShard(PartitionId(0), "repartition");
  ASSERT_TRUE(repartition_shard.ok());
  Lane decide("repartition-0", PartitionId(0), std::move(repartition_shard).value(), nullptr,
              options_, rekeyed_stage, clock_);
  std::vector<OutputMessage> rekeyed;
  int64_t offset = 0;
  for (const OutputMessage& m : repartition.sent) {
    if (m.topic != "repartition") {
      rekeyed.push_back(m);  // the dead letter, published by the first stage
      continue;
    }
    SourceRecord r;
    r.stream = "repartition";
    r.partition = PartitionId(0);
    r.offset = r.lane_offset = Offset(offset++);
    r.key = m.key;
    r.value = m.value;
    decide.Add(std::move(r));
  }
  RecordingSink verdicts;
  PrepareAll(decide,
             [](const engine::InputRecord& r) { return engine::DecodeRepartitionRecord(r.value); });
  ASSERT_TRUE(decide.Process(verdicts, 1'000'000, counts_).ok());
  // The dead letter came first from stage one; put it back in input order.
  rekeyed.insert(rekeyed.end(), verdicts.sent.begin(), verdicts.sent.end());
  auto not_dead = [](const OutputMessage& m) { return m.topic != "dlq"; };
  std::stable_partition(rekeyed.begin(), rekeyed.end(), not_dead);
  std::vector<OutputMessage> expected = direct_sink.sent;
  std::stable_partition(expected.begin(), expected.end(), not_dead);
  ASSERT_EQ(rekeyed.size(), expected.size());
  for (size_t i = 0; i < rekeyed.size(); ++i) {
    EXPECT_EQ(rekeyed[i].topic, expected[i].topic) << i;
    EXPECT_EQ(rekeyed[i].key, expected[i].key) << i;
    EXPECT_EQ(rekeyed[i].value, expected[i].value) << i;
    EXPECT_EQ(rekeyed[i].headers, expected[i].headers) << i;
  }
  // The page was forwarded through the repartition topic.
  EXPECT_THAT(rekeyed[5].value, HasSubstr("\"body\":\"<html>"));  // record 6
  EXPECT_EQ(rekeyed[4].key, std::nullopt);                        // record 5 had no key
}

}  // namespace
}  // namespace pagesieve::pipeline::testing
