// The per-partition protocol of pagesieve run, driven without a broker: a
// scripted sink acknowledges, fails or refuses messages on cue.
#include "run/partition_pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <nlohmann/json.hpp>

#include "engine/record_preparer.h"
#include "engine/repartition_record.h"
#include "run/output_messages.h"
#include "run_process.h"
#include "store/changelog.h"
#include "store/state_env.h"

namespace pagesieve::run {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

constexpr int64_t kT0 = 1'790'812'800'000;  // 2026-10-01

class ScriptedSink final : public OutputSink {
 public:
  Status Send(const OutputMessage& m, const std::shared_ptr<DeliveryCounter>& counter) override {
    if (refuse_) return Status::ResourceExhausted("full");
    sent.push_back(m);
    ++counter->unacknowledged;
    waiting_.push_back(counter);
    return Status::Ok();
  }
  int64_t unacknowledged() const override { return static_cast<int64_t>(waiting_.size()); }

  // Acknowledges everything sent, at consecutive offsets of one log.
  void AckAll() {
    for (auto& c : waiting_) {
      --c->unacknowledged;
      c->highest_offset = next_log_offset_++;
    }
    waiting_.clear();
  }
  void FailNext(const std::string& error) {
    auto c = waiting_.front();
    waiting_.pop_front();
    --c->unacknowledged;
    if (c->failures++ == 0) c->first_error = error;
  }
  void set_refuse(bool refuse) { refuse_ = refuse; }

  std::vector<OutputMessage> sent;

 private:
  bool refuse_ = false;
  std::deque<std::shared_ptr<DeliveryCounter>> waiting_;
  int64_t next_log_offset_ = 0;
};

std::string Article(int seed) {
  std::string text;
  for (int i = 0; i < 80; ++i) text += " word" + std::to_string((seed * 31 + i * 7) % 97);
  return text;
}

ConsumedRecord Record(int64_t offset, const std::string& url, int seed) {
  ConsumedRecord r;
  r.topic = "pages";
  r.partition = PartitionId(2);
  r.offset = Offset(offset);
  r.key = "site";
  r.value = Json{{"url", url}, {"fetched_at", kT0 + offset}, {"text", Article(seed)},
                 {"event_id", "e" + std::to_string(offset)}}.dump();
  r.headers = {{"trace", "t" + std::to_string(offset)}};
  return r;
}

class PartitionPipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<Config> config = Config::Defaults();
    ASSERT_TRUE(config.ok());
    StatusOr<engine::SieveOptions> sieve = engine::SieveOptionsFromConfig(*config);
    ASSERT_TRUE(sieve.ok()) << sieve.status().ToString();
    sieve_options_ = *sieve;
    sieve_options_.shard.url_expected_items = 10'000;
    store::StateEnvOptions env;
    env.dir = dir_.path();
    env.sync = false;
    env.block_cache_bytes = env.write_buffer_bytes = 8 << 20;
    env_ = std::move(store::StateEnv::Create(env)).value();
    sieve_ = std::make_unique<engine::Sieve>(sieve_options_);
    preparer_ = std::make_unique<engine::RecordPreparer>(sieve_options_, clock_);
    options_.batch_records = 2;
    options_.batch_linger = std::chrono::milliseconds(50);
    options_.checkpoint_interval = std::chrono::seconds(1);
    options_.topics = {"u", "d", "s", "dlq", false};
    Open(Offset(0));
  }

  void Open(std::optional<Offset> resume) {
    pipeline_.reset();
    auto shard = env_->OpenShard("pages", PartitionId(2), sieve_options_.shard);
    ASSERT_TRUE(shard.ok()) << shard.status().ToString();
    pipeline_ = std::make_unique<PartitionPipeline>("pages", PartitionId(2),
                                                    std::move(shard).value(), resume, options_,
                                                    *sieve_, clock_);
  }

  // Hands out every ready batch and prepares it on the spot.
  std::vector<uint64_t> PrepareAll(bool flush = true, bool deliver = true) {
    std::vector<uint64_t> seqs;
    uint64_t seq = 0;
    while (auto batch = pipeline_->TakeBatch(flush, &seq)) {
      batch->results.clear();
      for (const engine::InputRecord& r : batch->records) {
        batch->results.push_back(preparer_->Prepare(r));
      }
      if (deliver) pipeline_->Prepared(seq, std::move(batch));
      else held_.emplace(seq, std::move(batch));
      seqs.push_back(seq);
    }
    return seqs;
  }

  Status Decide() { return pipeline_->Decide(sink_, 1'000'000, &counts_); }

  std::vector<std::string> SentIds() const {
    std::vector<std::string> ids;
    for (const OutputMessage& m : sink_.sent) {
      Json j = Json::parse(m.value, nullptr, false);
      ids.push_back(j.is_discarded() ? "raw:" + m.value : j["event_id"].get<std::string>());
    }
    return ids;
  }

  testing::TempDir dir_;
  ManualClock clock_{WallTimeFromMillis(kT0 + 86'400'000)};
  engine::SieveOptions sieve_options_;
  std::unique_ptr<store::StateEnv> env_;
  std::unique_ptr<engine::Sieve> sieve_;
  std::unique_ptr<engine::RecordPreparer> preparer_;
  PipelineOptions options_;
  std::unique_ptr<PartitionPipeline> pipeline_;
  std::map<uint64_t, std::unique_ptr<engine::PrepareBatch>> held_;
  ScriptedSink sink_;
  engine::VerdictCounts counts_;
};

TEST_F(PartitionPipelineTest, BatchesAreHandedOutWhenFullOrAfterTheLinger) {
  uint64_t seq = 0;
  pipeline_->Add(Record(0, "https://a.example/0", 0));
  EXPECT_EQ(pipeline_->TakeBatch(false, &seq), nullptr);  // neither full nor old
  clock_.Advance(std::chrono::milliseconds(50));
  auto old = pipeline_->TakeBatch(false, &seq);
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->size(), 1u);
  pipeline_->Add(Record(1, "https://a.example/1", 1));
  pipeline_->Add(Record(2, "https://a.example/2", 2));
  auto full = pipeline_->TakeBatch(false, &seq);
  ASSERT_NE(full, nullptr);
  EXPECT_EQ(full->size(), 2u);
  EXPECT_EQ(full->records[0].default_event_id, "pages-2-1");
  EXPECT_EQ(full->records[0].source->offset, Offset(1));
}

TEST_F(PartitionPipelineTest, DecidesInOffsetOrderWhateverOrderBatchesArePreparedIn) {
  for (int i = 0; i < 6; ++i) pipeline_->Add(Record(i, "https://a.example/" + std::to_string(i), i));
  std::vector<uint64_t> seqs = PrepareAll(true, /*deliver=*/false);
  ASSERT_EQ(seqs.size(), 3u);
  pipeline_->Prepared(2, std::move(held_[2]));
  ASSERT_TRUE(Decide().ok());
  EXPECT_TRUE(sink_.sent.empty());  // batch 0 is not ready: nothing may be decided
  pipeline_->Prepared(0, std::move(held_[0]));
  pipeline_->Prepared(1, std::move(held_[1]));
  ASSERT_TRUE(Decide().ok());
  EXPECT_THAT(SentIds(), ::testing::ElementsAre("e0", "e1", "e2", "e3", "e4", "e5"));
  EXPECT_EQ(pipeline_->next_offset(), Offset(6));
}

TEST_F(PartitionPipelineTest, VerdictsGoToTheTopicOfTheirKindWithKeyAndHeaders) {
  pipeline_->Add(Record(0, "https://a.example/x", 1));
  pipeline_->Add(Record(1, "https://a.example/x?utm_source=y", 1));
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  ASSERT_EQ(sink_.sent.size(), 2u);
  EXPECT_EQ(sink_.sent[0].topic, "u");
  EXPECT_EQ(sink_.sent[1].topic, "d");
  EXPECT_EQ(sink_.sent[1].key, "site");
  EXPECT_THAT(sink_.sent[1].headers,
              ::testing::ElementsAre(std::pair<std::string, std::string>(kVerdictHeader, "duplicate"),
                                     std::pair<std::string, std::string>(kTierHeader, "url")));
  Json v = Json::parse(sink_.sent[1].value);
  EXPECT_EQ(v["source"]["partition"], 2);
  EXPECT_EQ(v["source"]["offset"], 1);
}

TEST_F(PartitionPipelineTest, BadRecordsAreDeadLetteredWithTheirOriginalBytes) {
  ConsumedRecord bad = Record(0, "https://a.example/", 0);
  bad.value = "not json at all";
  pipeline_->Add(bad);
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  ASSERT_EQ(sink_.sent.size(), 1u);
  const OutputMessage& m = sink_.sent[0];
  EXPECT_EQ(m.topic, "dlq");
  EXPECT_EQ(m.value, "not json at all");
  EXPECT_EQ(m.key, "site");
  std::map<std::string, std::string> h(m.headers.begin(), m.headers.end());
  EXPECT_EQ(h["trace"], "t0");  // original headers kept
  EXPECT_THAT(h[kErrorHeader], HasSubstr("not a JSON object"));
  EXPECT_EQ(h[kSourceTopicHeader], "pages");
  EXPECT_EQ(h[kSourcePartitionHeader], "2");
  EXPECT_EQ(h[kSourceOffsetHeader], "0");
  EXPECT_EQ(counts_.dead_letters, 1);
}

TEST_F(PartitionPipelineTest, CheckpointWaitsUntilEverythingSentIsAcknowledged) {
  pipeline_->Add(Record(0, "https://a.example/0", 0));
  pipeline_->Add(Record(1, "https://a.example/1", 1));
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  clock_.Advance(std::chrono::seconds(1));
  StatusOr<std::optional<Offset>> early = pipeline_->MaybeCheckpoint(sink_, false);
  ASSERT_TRUE(early.ok());
  EXPECT_FALSE(early->has_value()) << "checkpointed before acknowledgements";
  sink_.AckAll();
  StatusOr<std::optional<Offset>> done = pipeline_->MaybeCheckpoint(sink_, false);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(*done, Offset(2));
  // The shard has it: a restart resumes at 2.
  pipeline_.reset();
  Open(std::nullopt);
  EXPECT_EQ(pipeline_->checkpointed_offset(), Offset(2));
}

TEST_F(PartitionPipelineTest, NothingNewIsDecidedWhileACheckpointWaits) {
  pipeline_->Add(Record(0, "https://a.example/0", 0));
  pipeline_->Add(Record(1, "https://a.example/1", 1));
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  clock_.Advance(std::chrono::seconds(2));  // a checkpoint is due, acks are not in
  pipeline_->Add(Record(2, "https://a.example/2", 2));
  pipeline_->Add(Record(3, "https://a.example/3", 3));
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  EXPECT_EQ(sink_.sent.size(), 2u);
  sink_.AckAll();
  ASSERT_EQ(*pipeline_->MaybeCheckpoint(sink_, false), Offset(2));  // exactly the acknowledged prefix
  ASSERT_TRUE(Decide().ok());
  EXPECT_EQ(sink_.sent.size(), 4u);
}

TEST_F(PartitionPipelineTest, TheChangelogGetsACheckpointBeforeTheShardDoes) {
  options_.changelog_topic = "changelog";
  Open(Offset(0));
  pipeline_->Add(Record(0, "https://a.example/0", 0));
  pipeline_->Add(Record(1, "https://a.example/1", 1));
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  sink_.AckAll();  // the two verdicts: log offsets 0 and 1
  clock_.Advance(std::chrono::seconds(1));
  const size_t verdicts = sink_.sent.size();

  StatusOr<std::optional<Offset>> shipping = pipeline_->MaybeCheckpoint(sink_, false);
  ASSERT_TRUE(shipping.ok()) << shipping.status().ToString();
  EXPECT_FALSE(shipping->has_value()) << "checkpointed before the changelog acknowledged";
  ASSERT_GT(sink_.sent.size(), verdicts);
  for (size_t i = verdicts; i < sink_.sent.size(); ++i) {
    EXPECT_EQ(sink_.sent[i].topic, "changelog");
    EXPECT_EQ(sink_.sent[i].partition, 2);  // the input partition's
  }
  EXPECT_EQ(sink_.sent.back().key, store::ChangelogMarkerKey());
  // While the records travel, nothing new is decided: the overlay is theirs.
  pipeline_->Add(Record(2, "https://a.example/2", 2));
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  const size_t shipped = sink_.sent.size();
  EXPECT_FALSE(pipeline_->Drained());

  sink_.AckAll();
  StatusOr<std::optional<Offset>> done = pipeline_->MaybeCheckpoint(sink_, false);
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(*done, Offset(2));
  EXPECT_EQ(pipeline_->shard()->changelog_next(), Offset(static_cast<int64_t>(shipped)));
  ASSERT_TRUE(Decide().ok());
  EXPECT_EQ(sink_.sent.size(), shipped + 1);  // record 2's verdict, now
}

TEST_F(PartitionPipelineTest, AFailedDeliveryStopsThePartitionWithoutCheckpointing) {
  pipeline_->Add(Record(0, "https://a.example/0", 0));
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  sink_.FailNext("Broker: Message size too large");
  StatusOr<std::optional<Offset>> r = pipeline_->MaybeCheckpoint(sink_, true);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("Message size too large"));
  pipeline_.reset();
  Open(std::nullopt);
  EXPECT_FALSE(pipeline_->checkpointed_offset().has_value());
}

TEST_F(PartitionPipelineTest, AFullSinkKeepsDecidedOutputAndSendsItLaterInOrder) {
  for (int i = 0; i < 4; ++i) pipeline_->Add(Record(i, "https://a.example/" + std::to_string(i), i));
  PrepareAll();
  sink_.set_refuse(true);
  ASSERT_TRUE(Decide().ok());
  EXPECT_TRUE(sink_.sent.empty());
  EXPECT_FALSE(pipeline_->Drained());
  sink_.set_refuse(false);
  ASSERT_TRUE(Decide().ok());
  EXPECT_THAT(SentIds(), ::testing::ElementsAre("e0", "e1", "e2", "e3"));
  sink_.AckAll();
  EXPECT_TRUE(pipeline_->Drained());
}

TEST_F(PartitionPipelineTest, StopsDecidingAtTheUnacknowledgedLimit) {
  for (int i = 0; i < 4; ++i) pipeline_->Add(Record(i, "https://a.example/" + std::to_string(i), i));
  PrepareAll();
  ASSERT_TRUE(pipeline_->Decide(sink_, 2, &counts_).ok());
  EXPECT_EQ(sink_.sent.size(), 2u);  // one batch, then the limit
  sink_.AckAll();
  ASSERT_TRUE(pipeline_->Decide(sink_, 2, &counts_).ok());
  EXPECT_EQ(sink_.sent.size(), 4u);
}

TEST_F(PartitionPipelineTest, RecordsBeforeTheResumeOffsetAreIgnoredAndGapsAccepted) {
  Open(Offset(10));
  pipeline_->Add(Record(8, "https://a.example/8", 8));   // already decided before
  pipeline_->Add(Record(10, "https://a.example/10", 10));
  pipeline_->Add(Record(13, "https://a.example/13", 13));  // 11, 12 compacted away
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  EXPECT_THAT(SentIds(), ::testing::ElementsAre("e10", "e13"));
  EXPECT_EQ(pipeline_->next_offset(), Offset(14));
}

TEST_F(PartitionPipelineTest, PendingBytesCountWhatIsConsumedButUndecided) {
  ConsumedRecord r = Record(0, "https://a.example/0", 0);
  const size_t size = r.value.size();
  pipeline_->Add(r);
  EXPECT_EQ(pipeline_->pending_bytes(), size);
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  EXPECT_EQ(pipeline_->pending_bytes(), 0u);
}

// Hands out every batch of `pipeline` and runs `prepare` over its records on
// the spot, as the pool would.
void PrepareEach(PartitionPipeline& pipeline,
                 const std::function<StatusOr<engine::PreparedRecord>(const engine::InputRecord&)>& prepare) {
  uint64_t seq = 0;
  while (auto batch = pipeline.TakeBatch(true, &seq)) {
    for (const engine::InputRecord& r : batch->records) batch->results.push_back(prepare(r));
    pipeline.Prepared(seq, std::move(batch));
  }
}

// The stream of the re-keying tests: url, exact and near duplicates, a bad
// record, a skipped one, one without a key, and HTML bodies to forward.
std::vector<ConsumedRecord> RekeyStream() {
  std::vector<ConsumedRecord> records = {
      Record(0, "https://a.example/x", 1),
      Record(1, "https://a.example/x?utm_source=y", 1),  // url duplicate
      Record(2, "https://a.example/y", 1),                // exact duplicate
      Record(3, "https://a.example/bad", 0),
      Record(4, "https://a.example/gone", 2),
      Record(5, "https://a.example/z", 3),
      Record(6, "https://a.example/html", 4),
  };
  records[3].value = "not json at all";
  records[4].value = Json{{"url", "https://a.example/gone"}, {"fetched_at", kT0 + 4}, {"status", 404}}.dump();
  records[5].key.reset();
  records[6].value = Json{{"url", "https://a.example/html"},
                          {"fetched_at", kT0 + 6},
                          {"body", "<html><body><p>" + Article(4) + "</p></body></html>"},
                          {"event_id", "e6"}}.dump();
  return records;
}

TEST_F(PartitionPipelineTest, TheReKeyingStageRepublishesByScopeAndCommitsBehindAcknowledgements) {
  options_.repartition_topic = "repartition";
  PartitionPipeline rekey("pages", PartitionId(2), nullptr, Offset(0), options_, *sieve_, clock_);
  pipeline_.reset();
  ASSERT_EQ(rekey.shard(), nullptr);
  for (ConsumedRecord& r : RekeyStream()) rekey.Add(std::move(r));
  PrepareEach(rekey, [this](const engine::InputRecord& r) { return preparer_->Prepare(r); });
  ASSERT_TRUE(rekey.Decide(sink_, 1'000'000, &counts_).ok());
  ASSERT_EQ(sink_.sent.size(), 7u);
  EXPECT_EQ(sink_.sent[3].topic, "dlq");  // bad records are dead-lettered here, not forwarded
  for (size_t i : {0, 1, 2, 4, 5, 6}) {
    const OutputMessage& m = sink_.sent[i];
    EXPECT_EQ(m.topic, "repartition");
    EXPECT_EQ(m.key, "a.example");  // the scope
    StatusOr<engine::PreparedRecord> r = engine::DecodeRepartitionRecord(m.value);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->offset, Offset(static_cast<int64_t>(i)));
    EXPECT_EQ(r->verdict.source->topic, "pages");
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
TEST_F(PartitionPipelineTest, ReKeyedRecordsGetTheVerdictsOfTheInputDecidedDirectly) {
  options_.topics.include_body = true;
  Open(Offset(0));
  for (ConsumedRecord& r : RekeyStream()) pipeline_->Add(std::move(r));
  PrepareAll();
  ASSERT_TRUE(Decide().ok());
  const std::vector<OutputMessage> direct = sink_.sent;
  pipeline_.reset();

  PipelineOptions rekey_options = options_;
  rekey_options.repartition_topic = "repartition";
  PartitionPipeline rekey("pages", PartitionId(2), nullptr, Offset(0), rekey_options, *sieve_,
                          clock_);
  ScriptedSink repartition;
  for (ConsumedRecord& r : RekeyStream()) rekey.Add(std::move(r));
  PrepareEach(rekey, [this](const engine::InputRecord& r) { return preparer_->Prepare(r); });
  ASSERT_TRUE(rekey.Decide(repartition, 1'000'000, &counts_).ok());

  auto shard = env_->OpenShard("repartition", PartitionId(0), sieve_options_.shard);
  ASSERT_TRUE(shard.ok()) << shard.status().ToString();
  PartitionPipeline decide("repartition", PartitionId(0), std::move(shard).value(), Offset(0),
                           options_, *sieve_, clock_);
  std::vector<OutputMessage> rekeyed;
  int64_t offset = 0;
  for (const OutputMessage& m : repartition.sent) {
    if (m.topic != "repartition") {
      rekeyed.push_back(m);  // the dead letter, published by the first stage
      continue;
    }
    ConsumedRecord r;
    r.topic = "repartition";
    r.partition = PartitionId(0);
    r.offset = Offset(offset++);
    r.key = m.key;
    r.value = m.value;
    decide.Add(std::move(r));
  }
  ScriptedSink verdicts;
  PrepareEach(decide, [](const engine::InputRecord& r) { return engine::DecodeRepartitionRecord(r.value); });
  ASSERT_TRUE(decide.Decide(verdicts, 1'000'000, &counts_).ok());
  // The dead letter came first from stage one; put it back in input order.
  rekeyed.insert(rekeyed.end(), verdicts.sent.begin(), verdicts.sent.end());
  std::stable_partition(rekeyed.begin(), rekeyed.end(),
                        [](const OutputMessage& m) { return m.topic != "dlq"; });
  std::vector<OutputMessage> direct_sorted = direct;
  std::stable_partition(direct_sorted.begin(), direct_sorted.end(),
                        [](const OutputMessage& m) { return m.topic != "dlq"; });
  ASSERT_EQ(rekeyed.size(), direct_sorted.size());
  for (size_t i = 0; i < rekeyed.size(); ++i) {
    EXPECT_EQ(rekeyed[i].topic, direct_sorted[i].topic) << i;
    EXPECT_EQ(rekeyed[i].key, direct_sorted[i].key) << i;
    EXPECT_EQ(rekeyed[i].value, direct_sorted[i].value) << i;
    EXPECT_EQ(rekeyed[i].headers, direct_sorted[i].headers) << i;
  }
  // The page was forwarded through the repartition topic.
  EXPECT_THAT(rekeyed[5].value, HasSubstr("\"body\":\"<html>"));  // record 6
  EXPECT_EQ(rekeyed[4].key, std::nullopt);  // record 5 had no key
}

}  // namespace
}  // namespace pagesieve::run
