#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "engine/prepare_pool.h"
#include "engine/sieve.h"
#include "engine/sieve_options.h"
#include "engine/verdict_counts.h"
#include "kafka/kafka_options.h"
#include "kafka/kafka_sink.h"
#include "run/changelog_restorer.h"
#include "run/completion_queue.h"
#include "run/partition_pipeline.h"
#include "run/run_metrics.h"
#include "run/run_options.h"
#include "store/state_env.h"

namespace RdKafka {
class KafkaConsumer;
class Producer;
class TopicPartition;
}  // namespace RdKafka

namespace pagesieve::run {

struct RunSummary {
  engine::VerdictCounts counts;
  bool backfill_complete = false;
};

// `pagesieve run`: consumes the input topic as a member of the consumer
// group, decides every record with its partition's shard, publishes verdicts
// and dead letters, and commits offsets only behind acknowledged output.
//
// One thread (the caller of Run) consumes, handles rebalances, decides,
// produces and commits; fingerprinting runs on the PreparePool's workers.
// docs/daemon.md describes the protocol.
//
// It reports into `metrics` (docs/metrics.md), which may be read from any
// thread while it runs; without one it keeps its own, unread.
class RunLoop {
 public:
  RunLoop(kafka::KafkaOptions kafka, engine::SieveOptions sieve, store::StateEnvOptions state,
          RunOptions run, const Clock& clock, const std::atomic<bool>& stop_requested,
          RunMetrics* metrics = nullptr);
  ~RunLoop();

  // Connects, checks the topics (creating the changelog and repartition
  // topics as needed) and subscribes; Run() does it when not done yet. The
  // re-keying stage starts first, so the repartition topic exists when the
  // stage reading it starts.
  Status Start();

  // Runs until a stop is requested (SIGTERM), a backfill is complete, or
  // something fatal happens; the status then says what, in one line.
  StatusOr<RunSummary> Run();

  // Rebalance events, called by the consumer's callback inside consume().
  void OnAssign(std::vector<RdKafka::TopicPartition*>& partitions);
  void OnRevoke(const std::vector<RdKafka::TopicPartition*>& partitions);
  void OnLost(const std::vector<RdKafka::TopicPartition*>& partitions);

 private:
  struct Assigned {
    uint64_t id;  // distinguishes this pipeline from an earlier one of the partition
    std::unique_ptr<PartitionPipeline> pipeline;
    bool paused = false;
    bool finished = false;  // backfill reached its end
  };

  Status Step(bool stopping);
  void Consume(std::chrono::milliseconds wait);
  void SubmitBatches(bool flush);
  void DispatchCompletions();
  Status DecideAll();
  Status CheckpointAndCommit(bool force);
  void ApplyBackpressure();
  Status CheckBackfillProgress();
  void LogProgress(bool force);
  // Copies lag, shard and queue figures into the metrics, every
  // sample_interval (or now, when `force`).
  void SampleMetrics(bool force);
  void SamplePartition(PartitionId partition, const Assigned& assigned, EventTime now);
  Status Shutdown();
  // Decides, acknowledges and checkpoints everything of one pipeline, then
  // commits; false if it could not within the shutdown timeout.
  bool DrainPartition(Assigned& assigned, Clock::SteadyTime deadline);
  // The concrete offset a newly assigned partition starts from.
  StatusOr<Offset> StartOffset(PartitionId partition, const std::optional<Offset>& checkpointed);
  // Opens the partition's shard and pipeline; the partition to hand to
  // incremental_assign (owned by the caller), positioned where it starts.
  StatusOr<RdKafka::TopicPartition*> OpenPartition(PartitionId partition);
  // Finishes restores for a bounded time and starts the partitions done.
  Status AdvanceRestores();
  void UpdateReadiness();
  std::vector<RdKafka::TopicPartition*> StopRestoring(
      const std::vector<RdKafka::TopicPartition*>& partitions);
  // Shards on disk that this instance does not own: noted at start and on
  // revocation, deleted once revoked_shard_grace has passed
  // (run_loop_shards.cc).
  Status NoteUnownedShards();
  void RemoveExpiredShards();
  // Creates the changelog topic when it has no partitions (missing); refuses
  // one whose partition count is not the input's.
  Status EnsureChangelogTopic(int32_t existing_partitions);
  // The re-keying stage's output topic, created when it has no partitions.
  Status EnsureRepartitionTopic(int32_t existing_partitions);
  bool stateful() const { return run_.stage != Stage::kRekey; }
  StatusOr<std::pair<int64_t, int64_t>> Watermarks(PartitionId partition);
  Status CheckBrokerAndTopics();
  Status ComputeBackfillEnds();
  Status Commit(const std::vector<std::pair<PartitionId, Offset>>& offsets, bool sync);

  const kafka::KafkaOptions kafka_;
  const engine::SieveOptions sieve_options_;
  store::StateEnvOptions state_options_;
  const RunOptions run_;
  const Clock& clock_;
  const std::atomic<bool>& stop_requested_;
  std::unique_ptr<metrics::Registry> own_registry_;  // when the caller gave no metrics
  std::unique_ptr<RunMetrics> own_metrics_;
  RunMetrics* metrics_;
  PipelineOptions pipeline_options_;
  engine::Sieve sieve_;

  std::unique_ptr<store::StateEnv> state_;
  kafka::DeliveryReports delivery_reports_;
  std::unique_ptr<RdKafka::DeliveryReportCb> counted_reports_;  // counts errors, then forwards
  std::unique_ptr<RdKafka::EventCb> kafka_events_;              // librdkafka's logs, through spdlog
  std::unique_ptr<RdKafka::Producer> producer_;
  std::unique_ptr<kafka::KafkaSink> sink_;
  std::unique_ptr<RdKafka::RebalanceCb> rebalance_cb_;
  std::unique_ptr<RdKafka::KafkaConsumer> consumer_;
  CompletionQueue completions_;
  std::unique_ptr<engine::PreparePool> pool_;
  std::unique_ptr<ChangelogRestorer> restorer_;  // with changelog.enabled
  std::map<PartitionId, Clock::SteadyTime> unowned_since_;  // shards on disk, not ours
  Clock::SteadyTime last_shard_sweep_{};

  std::map<PartitionId, Assigned> assigned_;
  uint64_t next_pipeline_id_ = 1;
  std::set<PartitionId> started_once_;               // --from applies once per partition
  std::map<PartitionId, Offset> backfill_end_;       // --until: first offset not to process
  std::set<PartitionId> backfill_done_;              // partitions that reached their end
  bool backfill_ends_known_ = false;  // kDecideRekeyed learns them when upstream is done
  bool started_ = false;
  Status fatal_;                                     // set by callbacks; ends the run
  bool abandon_on_revoke_ = false;  // a fatal error: revoked partitions are not drained
  int32_t input_partitions_ = 0;
  engine::VerdictCounts counts_;
  bool paused_all_ = false;
  Clock::SteadyTime started_at_{}, last_progress_{};
  int64_t records_at_last_progress_ = 0;
  Clock::SteadyTime last_sample_{};
  std::set<PartitionId> sampled_;  // partitions whose series the last sample wrote
};

}  // namespace pagesieve::run
