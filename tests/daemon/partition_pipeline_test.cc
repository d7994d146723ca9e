// The per-partition protocol of pagesieve run, driven without a broker: a
// scripted sink acknowledges, fails or refuses messages on cue.
#include "run/partition_pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <deque>
#include <nlohmann/json.hpp>

#include "engine/record_preparer.h"
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
  ManualClock clock_{EventTimeFromMillis(kT0 + 86'400'000)};
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
  EXPECT_EQ(pipeline_->shard().changelog_next(), Offset(static_cast<int64_t>(shipped)));
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

}  // namespace
}  // namespace pagesieve::run
