#pragma once

#include <atomic>
#include <memory>
#include <optional>

#include "common/clock.h"
#include "common/status_or.h"
#include "engine/engine_options.h"
#include "engine/verdict_counts.h"
#include "kafka/kafka_options.h"
#include "kafka/kafka_sink.h"
#include "kafka/output_messages.h"
#include "pipeline/background_opener.h"
#include "pipeline/pipeline.h"
#include "routed/owner_stage.h"
#include "run/changelog_restorer.h"
#include "run/kafka_source.h"
#include "run/metrics_sampler.h"
#include "run/run_metrics.h"
#include "run/run_options.h"
#include "run/transactional_id.h"
#include "run/unowned_shards.h"
#include "store/state_env.h"

namespace pagesieve::run {

struct RunSummary {
  engine::VerdictCounts counts;
  bool backfill_complete = false;
};

// One stage of `pagesieve run` on Kafka (docs/daemon.md): the record
// pipeline (daemon/pipeline) between a KafkaSource, reading the stage's
// input topic as a member of its consumer group, and a KafkaSink. What the
// stage does with each record is its pipeline::Stage: decide (one-stage
// runs, and the second stage of a re-keyed run), or republish by scope (the
// re-keying stage, docs/rekey.md).
//
// The thread that calls Run() does everything but fingerprinting, which
// runs on the pipeline's pool. It reports into `metrics` (docs/metrics.md),
// which may be read from any thread while it runs; without one it keeps its
// own, unread.
class KafkaStage {
 public:
  KafkaStage(kafka::KafkaOptions kafka, engine::EngineOptions engine, store::StateEnvOptions state,
             RunOptions run, const Clock& clock, const std::atomic<bool>& stop_requested,
             RunMetrics* metrics = nullptr);
  ~KafkaStage();

  // Connects, checks the topics (creating the changelog and repartition
  // topics as needed) and subscribes; Run() does it when not done yet. The
  // re-keying stage starts first, so the repartition topic exists when the
  // stage reading it starts.
  Status Start();

  // Runs until a stop is requested (SIGTERM), a backfill is complete, or
  // something fatal happens; the status then says what, in one line.
  StatusOr<RunSummary> Run();

 private:
  bool stateful() const { return run_.stage != StageKind::kRekey; }
  pipeline::PipelineOptions PipelineOptionsOf() const;
  StatusOr<std::unique_ptr<pipeline::Stage>> MakeStage(int32_t events_partitions);
  // A backfill's owner stage: the stage feeding it is done, and every
  // owner it holds has seen its sources end with nothing left in flight.
  bool OwnersFinished() const;
  // One round of the pipeline, then the periodic chores.
  Status Step();
  Status Shutdown();
  void LogProgress(bool force);

  kafka::KafkaOptions kafka_;  // output.max_message_bytes is learnt at Start()
  const engine::EngineOptions engine_;
  store::StateEnvOptions state_options_;
  const RunOptions run_;
  const Clock& clock_;
  const std::atomic<bool>& stop_requested_;
  std::unique_ptr<metrics::Registry> own_registry_;  // when the caller gave no metrics
  std::unique_ptr<RunMetrics> own_metrics_;
  RunMetrics* metrics_;
  std::optional<MetricsSampler> sampler_;

  std::optional<TransactionalId> transactional_id_;  // exactly once
  std::unique_ptr<store::StateEnv> state_;  // none in the re-keying stage
  std::unique_ptr<kafka::KafkaSink> sink_;
  // Opens shards for the source's assignment (none in the re-keying stage).
  // After the state it opens from, before the source that uses it.
  std::unique_ptr<pipeline::BackgroundOpener> opener_;
  std::unique_ptr<KafkaSource> source_;
  std::unique_ptr<ChangelogRestorer> restorer_;  // with changelog.enabled
  std::optional<UnownedShards> unowned_;         // with changelog.enabled
  std::unique_ptr<kafka::KafkaFormat> format_;
  std::unique_ptr<pipeline::Stage> stage_;
  routed::OwnerStage* owner_stage_ = nullptr;  // stage_, when it is an owner stage
  // Last: closed first, while what its lanes use is still there.
  std::unique_ptr<pipeline::Pipeline> pipeline_;

  bool started_ = false;
  Clock::SteadyTime last_progress_{};
  int64_t records_at_last_progress_ = 0;
};

}  // namespace pagesieve::run
