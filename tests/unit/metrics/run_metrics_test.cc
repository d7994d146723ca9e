// Where pagesieve run measures: store lookups (TimedTierStores), record
// latency (Lane), fingerprinting (PreparePool), verdict counters and
// per-partition series (RunMetrics). Driven without a broker, on fake time.
#include "run/run_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <nlohmann/json.hpp>

#include "engine/prepare_pool.h"
#include "engine/record_preparer.h"
#include "kafka/output_messages.h"
#include "pipeline/decide_stage.h"
#include "pipeline/lane.h"
#include "pipeline/timed_tier_stores.h"
#include "prometheus_text.h"
#include "run_process.h"
#include "store/state_env.h"

namespace pagesieve::run {
namespace {

using Json = nlohmann::json;
using std::chrono::milliseconds;

constexpr int64_t kT0 = 1'790'812'800'000;  // 2026-10-01

// Every steady-clock reading is 1 ms after the one before: a span measured
// between two readings is exactly 1 ms, whatever the real time.
class TickingClock final : public Clock {
 public:
  WallTime Now() const override { return WallTimeFromMillis(kT0 + 86'400'000); }
  SteadyTime SteadyNow() const override { return SteadyTime(milliseconds(++ticks_)); }

 private:
  mutable std::atomic<int64_t> ticks_{0};
};

std::string Event(int64_t offset) {
  std::string text;
  for (int i = 0; i < 60; ++i) text += " word" + std::to_string((offset * 31 + i * 7) % 97);
  return Json{{"url", "https://site.example/a" + std::to_string(offset)},
              {"fetched_at", kT0 + offset},
              {"text", text}}
      .dump();
}

class RunMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StatusOr<Config> config = Config::Defaults();
    ASSERT_TRUE(config.ok());
    StatusOr<engine::EngineOptions> sieve = engine::EngineOptionsFromConfig(*config);
    ASSERT_TRUE(sieve.ok());
    sieve_options_ = *sieve;
    sieve_options_.shard.url_expected_items = 10'000;
    store::StateEnvOptions env;
    env.dir = dir_.path();
    env.sync = false;
    env.block_cache_bytes = env.write_buffer_bytes = 8 << 20;
    env_ = std::move(store::StateEnv::Create(env)).value();
  }

  std::unique_ptr<store::Shard> OpenShard() {
    return std::move(env_->OpenShard("pages", PartitionId(1), sieve_options_.shard)).value();
  }

  testing::Exposition Scrape() {
    StatusOr<testing::Exposition> e = testing::ParsePrometheusText(registry_.Render());
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    return e.ok() ? *e : testing::Exposition{};
  }

  testing::TempDir dir_;
  engine::EngineOptions sieve_options_;
  std::unique_ptr<store::StateEnv> env_;
  metrics::Registry registry_;
  RunMetrics metrics_{registry_};
};

TEST_F(RunMetricsTest, TimedTierStoresObserveEachLookupUnderItsStore) {
  TickingClock clock;
  std::unique_ptr<store::Shard> inner = OpenShard();
  pipeline::TimedTierStores shard(
      *inner, clock, {&metrics_.url_lookup, &metrics_.exact_lookup, &metrics_.near_lookup});
  const Digest128 url{1, 2};
  ASSERT_TRUE(shard.LookupUrl("s", url, {}).ok());
  ASSERT_TRUE(shard.LookupUrl("s", url, {}).ok());
  ASSERT_TRUE(shard.LookupContent("s", url, {}).ok());
  ASSERT_TRUE(shard.FindNear("s", {0xabcdef, 3, {}}, {}).ok());
  testing::Exposition e = Scrape();
  EXPECT_EQ(e.Value("pagesieve_store_lookup_seconds_count", {{"store", "url"}}), 2);
  EXPECT_DOUBLE_EQ(*e.Value("pagesieve_store_lookup_seconds_sum", {{"store", "url"}}), 0.002);
  EXPECT_EQ(e.Value("pagesieve_store_lookup_seconds_count", {{"store", "exact"}}), 1);
  EXPECT_EQ(e.Value("pagesieve_store_lookup_seconds_count", {{"store", "near"}}), 1);
}

TEST_F(RunMetricsTest, TimedTierStoresForwardWrites) {
  TickingClock clock;
  std::unique_ptr<store::Shard> inner = OpenShard();
  pipeline::TimedTierStores shard(
      *inner, clock, {&metrics_.url_lookup, &metrics_.exact_lookup, &metrics_.near_lookup});
  const Digest128 content{3, 4};
  store::Origin origin;
  origin.event_id = "e1";
  origin.event_time = EventTimeFromMillis(kT0);
  ASSERT_TRUE(shard.InsertContent("s", content, origin).ok());
  StatusOr<std::optional<store::ContentEntry>> found = shard.LookupContent("s", content, {});
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->origin.event_id, "e1");
  EXPECT_TRUE(inner->LookupContent("s", content, {})->has_value()) << "not forwarded";
}

TEST_F(RunMetricsTest, TheLaneObservesTimeFromReadToDecided) {
  ManualClock clock(WallTimeFromMillis(kT0 + 86'400'000));
  engine::RecordPreparer preparer(sieve_options_, clock);
  const kafka::KafkaFormat format({"u", "d", "s", "dlq", false}, "body", "body_base64");
  pipeline::DecideStage stage(sieve_options_, clock, format);
  pipeline::LaneOptions options;
  options.batch_records = 4;
  options.processing_latency = &metrics_.processing_latency;
  options.checkpoint = {std::chrono::hours(1), std::nullopt};  // no checkpoint holds decisions up
  pipeline::Lane lane("pages-1", PartitionId(1), OpenShard(), nullptr, options, stage, clock);
  lane.StartAt(Offset(0));
  for (int64_t i = 0; i < 4; ++i) {
    pipeline::SourceRecord r;
    r.partition = PartitionId(1);
    r.offset = r.lane_offset = Offset(i);
    r.value = Event(i);
    r.received_at = clock.SteadyNow();
    ASSERT_TRUE(lane.Add(std::move(r)));
    clock.Advance(milliseconds(100));  // read 100 ms apart
  }
  uint64_t seq = 0;
  std::unique_ptr<engine::PrepareBatch> batch = lane.TakeBatch(true, &seq);
  ASSERT_NE(batch, nullptr);
  for (const engine::InputRecord& r : batch->records) batch->results.push_back(preparer.Prepare(r));
  lane.Prepared(seq, std::move(batch));
  clock.Advance(milliseconds(600));  // decided at 1000 ms: waits of 1000, 900, 800, 700 ms

  class NullSink final : public pipeline::Sink {
   public:
    Status Send(const pipeline::OutputMessage&,
                const std::shared_ptr<pipeline::DeliveryCounter>&) override {
      return Status::Ok();
    }
    void Poll(Duration) override {}
    int64_t unacknowledged() const override { return 0; }
  } sink;
  engine::VerdictCounts counts;
  ASSERT_TRUE(lane.Process(sink, 100, counts).ok());
  ASSERT_EQ(counts.records, 4);
  testing::Exposition e = Scrape();
  EXPECT_EQ(e.Value("pagesieve_processing_latency_seconds_count"), 4);
  EXPECT_DOUBLE_EQ(*e.Value("pagesieve_processing_latency_seconds_sum"), 3.4);
  EXPECT_EQ(e.Value("pagesieve_processing_latency_seconds_bucket", {{"le", "0.512"}}), 0);
  EXPECT_EQ(e.Value("pagesieve_processing_latency_seconds_bucket", {{"le", "1.024"}}), 4);
}

TEST_F(RunMetricsTest, PreparePoolTimesEachRecord) {
  TickingClock clock;
  engine::PreparePool pool(sieve_options_, clock, 1);
  auto batch = std::make_unique<engine::PrepareBatch>();
  std::vector<std::string> values;
  for (int i = 0; i < 5; ++i) values.push_back(Event(i));
  for (const std::string& value : values) {
    engine::InputRecord r;
    r.value = value;
    r.default_event_id = "id";
    batch->records.push_back(r);
  }
  std::promise<std::unique_ptr<engine::PrepareBatch>> done;
  pool.Submit(std::move(batch),
              [&](std::unique_ptr<engine::PrepareBatch> b) { done.set_value(std::move(b)); });
  std::future<std::unique_ptr<engine::PrepareBatch>> result = done.get_future();
  ASSERT_EQ(result.wait_for(std::chrono::seconds(30)), std::future_status::ready);
  std::unique_ptr<engine::PrepareBatch> prepared = result.get();
  ASSERT_EQ(prepared->prepare_times.size(), 5u);
  for (std::chrono::nanoseconds t : prepared->prepare_times) EXPECT_EQ(t, milliseconds(1));
}

TEST_F(RunMetricsTest, CountsAreAddedOnceHoweverOftenTheyAreReported) {
  engine::VerdictCounts counts;
  counts.records = 6;
  counts.unique = 3;
  counts.duplicate_near = 1;
  counts.skipped = 1;
  counts.dead_letters = 1;
  metrics_.AddCounts(counts);
  metrics_.AddCounts(counts);
  counts.records += 2;
  counts.duplicate_url += 2;
  counts.truncated = 1;
  metrics_.AddCounts(counts);
  testing::Exposition e = Scrape();
  EXPECT_EQ(e.Value("pagesieve_verdicts_total", {{"verdict", "unique"}, {"tier", "none"}}), 3);
  EXPECT_EQ(e.Value("pagesieve_verdicts_total", {{"verdict", "duplicate"}, {"tier", "url"}}), 2);
  EXPECT_EQ(e.Value("pagesieve_verdicts_total", {{"verdict", "duplicate"}, {"tier", "exact"}}), 0);
  EXPECT_EQ(e.Value("pagesieve_verdicts_total", {{"verdict", "duplicate"}, {"tier", "near"}}), 1);
  EXPECT_EQ(e.Value("pagesieve_verdicts_total", {{"verdict", "skipped"}, {"tier", "none"}}), 1);
  EXPECT_EQ(e.Value("pagesieve_dead_letters_total"), 1);
  EXPECT_EQ(e.Value("pagesieve_truncated_records_total"), 1);
}

TEST_F(RunMetricsTest, RemovingAPartitionDropsOnlyItsSeries) {
  for (const char* p : {"1", "2"}) {
    metrics_.consumer_lag.WithLabels({p}).Set(10);
    metrics_.store_entries.WithLabels({p, "url"}).Set(5);
    metrics_.store_entries.WithLabels({p, "near"}).Set(5);
    metrics_.bloom_fill.WithLabels({p}).Set(0.1);
    metrics_.pending_compaction_bytes.WithLabels({p}).Set(4096);
    metrics_.memory_bytes.WithLabels({p, "bloom"}).Set(1024);
    metrics_.memory_bytes.WithLabels({p, "simhash_index"}).Set(56);
    metrics_.memory_bytes.WithLabels({p, "lsh_index"}).Set(434);
    metrics_.index_rows.WithLabels({p, "lsh"}).Set(33);
  }
  metrics_.RemovePartition(PartitionId(1));
  testing::Exposition e = Scrape();
  EXPECT_EQ(e.Sum("pagesieve_store_entries"), 10);
  EXPECT_FALSE(e.Value("pagesieve_consumer_lag_records", {{"partition", "1"}}).has_value());
  EXPECT_EQ(e.Value("pagesieve_consumer_lag_records", {{"partition", "2"}}), 10);
  EXPECT_FALSE(e.Value("pagesieve_bloom_fill_ratio", {{"partition", "1"}}).has_value());
  EXPECT_FALSE(
      e.Value("pagesieve_store_pending_compaction_bytes", {{"partition", "1"}}).has_value());
  EXPECT_EQ(e.Value("pagesieve_store_pending_compaction_bytes", {{"partition", "2"}}), 4096);
  EXPECT_EQ(e.Sum("pagesieve_store_memory_bytes", {{"partition", "1"}}), 0);
  EXPECT_EQ(e.Sum("pagesieve_store_memory_bytes", {{"partition", "2"}}), 1514);
  EXPECT_FALSE(e.Value("pagesieve_store_index_rows", {{"partition", "1"}}).has_value());
  EXPECT_EQ(e.Value("pagesieve_store_index_rows", {{"partition", "2"}, {"index", "lsh"}}), 33);
}

TEST_F(RunMetricsTest, EveryMetricFollowsThePrometheusNamingConventions) {
  testing::Exposition e = Scrape();
  ASSERT_GT(e.type.size(), 20u);
  for (const auto& [name, type] : e.type) {
    EXPECT_TRUE(name.starts_with("pagesieve_")) << name;
    EXPECT_EQ(name.ends_with("_total"), type == "counter") << name;
    EXPECT_FALSE(e.help[name].empty()) << name;
  }
  EXPECT_EQ(e.Value("pagesieve_ready"), 0);
  metrics_.SetReady(true);
  EXPECT_EQ(Scrape().Value("pagesieve_ready"), 1);
  EXPECT_TRUE(metrics_.ready.load());
}

}  // namespace
}  // namespace pagesieve::run
