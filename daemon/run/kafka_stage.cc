#include "run/kafka_stage.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "pipeline/decide_stage.h"
#include "routed/owner_stage.h"
#include "routed/route_stage.h"
#include "run/rekey_stage.h"
#include "run/topic_checks.h"
#include "run/transactional_id.h"

namespace pagesieve::run {
namespace {

Status CheckWritable(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string probe = dir + "/.pagesieve-write-probe";
  {
    std::ofstream out(probe);
    out << "ok";
    if (!out) {
      return Status::FailedPrecondition("state directory '" + dir +
                                        "' is not writable: " + std::strerror(errno));
    }
  }
  std::filesystem::remove(probe, ec);
  return Status::Ok();
}

}  // namespace

KafkaStage::KafkaStage(kafka::KafkaOptions kafka, engine::EngineOptions engine,
                       store::StateEnvOptions state, RunOptions run, const Clock& clock,
                       const std::atomic<bool>& stop_requested, RunMetrics* metrics)
    : kafka_(std::move(kafka)),
      engine_(std::move(engine)),
      state_options_(std::move(state)),
      run_(run),
      clock_(clock),
      stop_requested_(stop_requested),
      metrics_(metrics) {
  if (metrics_ == nullptr) {
    own_registry_ = std::make_unique<metrics::Registry>();
    own_metrics_ = std::make_unique<RunMetrics>(*own_registry_);
    metrics_ = own_metrics_.get();
  }
  sampler_.emplace(*metrics_, run_.sample_interval, clock_);
}

KafkaStage::~KafkaStage() {
  if (pipeline_ && source_) {
    pipeline_->Abandon();  // an error path: leave state at its last checkpoint
    source_->Close(*pipeline_);
  }
}

pipeline::PipelineOptions KafkaStage::PipelineOptionsOf() const {
  pipeline::PipelineOptions o;
  o.input_name = kafka_.input_topic;
  // Decoding what the re-keying stage prepared needs no more than one.
  o.threads = run_.stage == StageKind::kDecideRekeyed || IsOwnerStage(run_.stage) ? 1 : run_.threads;
  o.lane.batch_records = run_.batch_records;
  o.lane.batch_linger = run_.batch_linger;
  o.lane.checkpoint = {run_.checkpoint_interval, std::nullopt};
  if (kafka_.changelog.enabled && stateful()) o.lane.changelog_topic = kafka_.changelog.topic;
  o.lane.processing_latency = &metrics_->processing_latency;
  o.lane.changelog_records = &metrics_->changelog_records;
  o.max_pending_bytes = run_.max_pending_bytes;
  o.max_unacknowledged = run_.max_unacknowledged;
  if (stateful()) {
    o.lookup_timers = pipeline::TimedTierStores::Timers{
        &metrics_->url_lookup, &metrics_->exact_lookup, &metrics_->near_lookup};
  }
  o.fingerprint_time = &metrics_->fingerprint_time;
  o.lane.transactional = kafka_.processing.exactly_once;
  o.transactions_committed = &metrics_->transactions_committed;
  o.transactions_aborted = &metrics_->transactions_aborted;
  o.commit_time = &metrics_->commit_time;
  o.checkpoints = &metrics_->checkpoints;
  return o;
}

StatusOr<std::unique_ptr<pipeline::Stage>> KafkaStage::MakeStage(int32_t events_partitions) {
  const kafka::RoutingOptions& r = kafka_.routing;
  switch (run_.stage) {
    case StageKind::kRekey:
      return std::unique_ptr<pipeline::Stage>(std::make_unique<RekeyStage>(engine_, clock_, kafka_));
    case StageKind::kDecideRekeyed:
      return std::unique_ptr<pipeline::Stage>(std::make_unique<pipeline::DecideStage>(
          engine_, clock_, *format_, pipeline::DecideStage::Input::kRepartitionRecords));
    case StageKind::kRoute: {
      PS_ASSIGN_OR_RETURN(routing::Ownership owners, routing::Ownership::Create(r.partitions));
      return std::unique_ptr<pipeline::Stage>(std::make_unique<routed::RouteStage>(
          engine_, clock_, kafka_, *format_, owners, &metrics_->late_records,
          routed::SentCounters(&metrics_->routed_messages, &metrics_->routed_message_bytes)));
    }
    case StageKind::kUrlOwners:
    case StageKind::kContentOwners:
    case StageKind::kNearOwners: {
      routed::OwnerContext c;
      PS_ASSIGN_OR_RETURN(c.next_owners, routing::Ownership::Create(r.partitions));
      c.topic = kafka_.input_topic;
      // Who promises this stage progress: every input partition (the route
      // stage stamps for each), or every partition of the stage before.
      const bool url = run_.stage == StageKind::kUrlOwners;
      const std::string& from = url ? r.input_topic
                                : run_.stage == StageKind::kContentOwners ? r.url_topic
                                                                          : r.content_topic;
      for (int32_t p = 0; p < (url ? events_partitions : r.partitions); ++p) {
        c.sources.push_back(routing::SourceId{from, PartitionId(p)});
      }
      c.kind = url ? routed::OwnerKind::kUrl
               : run_.stage == StageKind::kContentOwners ? routed::OwnerKind::kContent
                                                         : routed::OwnerKind::kNear;
      PS_ASSIGN_OR_RETURN(routing::NearPlan plan, routing::NearPlan::ForShard(engine_.shard));
      auto stage = std::make_unique<routed::OwnerStage>(
          engine_, kafka_, *format_, std::move(c), std::move(plan),
          routed::SentCounters(&metrics_->routed_messages, &metrics_->routed_message_bytes));
      owner_stage_ = stage.get();
      return std::unique_ptr<pipeline::Stage>(std::move(stage));
    }
    case StageKind::kDecide:
      break;
  }
  return std::unique_ptr<pipeline::Stage>(
      std::make_unique<pipeline::DecideStage>(engine_, clock_, *format_));
}

bool KafkaStage::OwnersFinished() const {
  if (owner_stage_ == nullptr || run_.until.kind == EndPosition::Kind::kForever ||
      run_.upstream_done == nullptr || !run_.upstream_done->load()) {
    return false;
  }
  for (const pipeline::Pipeline::LaneInfo& lane : pipeline_->lanes()) {
    if (lane.pending_bytes > 0 || !owner_stage_->Finished(lane.partition)) return false;
  }
  return true;
}

Status KafkaStage::Start() {
  if (stateful()) {
    PS_RETURN_IF_ERROR(CheckWritable(state_options_.dir));
    PS_ASSIGN_OR_RETURN(state_, store::StateEnv::Create(state_options_));
  }
  PS_ASSIGN_OR_RETURN(source_, KafkaSource::Create(kafka_, run_, *metrics_, clock_));
  int32_t events_partitions = 0;
  PS_ASSIGN_OR_RETURN(int32_t input_partitions,
                      CheckTopics(source_->consumer(), kafka_, run_.stage, clock_,
                                  stop_requested_, &events_partitions));
  // Before the producer exists: its batches must fit the topics too.
  if (kafka_.output.learn_topic_limits) {
    PS_ASSIGN_OR_RETURN(kafka_.output.max_message_bytes, OutputSizeLimit(kafka_, run_.stage, clock_));
  }
  if (kafka_.processing.exactly_once) {
    PS_ASSIGN_OR_RETURN(TransactionalId claimed,
                        TransactionalId::Claim(kafka_, run_.stage, state_options_.dir));
    transactional_id_.emplace(std::move(claimed));
    kafka_.processing.transactional_id = transactional_id_->id();
    kafka_.processing.transactional_id_exclusive = transactional_id_->exclusive();
  }
  PS_ASSIGN_OR_RETURN(
      sink_, kafka::KafkaSink::Create(kafka_, &metrics_->delivery_errors, &source_->consumer(),
                                      clock_));
  sink_->LearnTopics(WrittenTopics(kafka_, run_.stage));
  if (kafka_.changelog.enabled && stateful()) {
    restorer_ =
        std::make_unique<ChangelogRestorer>(kafka_, *state_, engine_.shard, clock_, *metrics_);
    PS_RETURN_IF_ERROR(restorer_->Init());
    unowned_.emplace(*state_, kafka_.input_topic, kafka_.changelog.revoked_shard_grace, clock_);
    unowned_->NoteExisting();
  }
  format_ = std::make_unique<kafka::KafkaFormat>(kafka_.output, engine_.fields.body,
                                                 engine_.fields.body_base64);
  PS_ASSIGN_OR_RETURN(stage_, MakeStage(events_partitions));
  pipeline_ = std::make_unique<pipeline::Pipeline>(
      *source_, *sink_, *stage_,
      [this](PartitionId p) { return state_->OpenShard(kafka_.input_topic, p, engine_.shard); },
      PipelineOptionsOf(), clock_);
  // The stage reading the repartition topic learns its backfill ends once
  // the re-keying stage is done (KafkaSource::Poll).
  if (stateful()) {
    // As many workers as fingerprinting gets: a member given many partitions
    // opens them in parallel, within the cores the daemon was given. The
    // workers read only what no longer changes once started (the topic, the
    // shard options) and the thread-safe StateEnv.
    opener_ = std::make_unique<pipeline::BackgroundOpener>(
        [this](PartitionId p, std::stop_token stop) {
          return state_->OpenShard(kafka_.input_topic, p, engine_.shard, std::move(stop));
        },
        run_.threads);
  }
  // An owner stage's input never ends: its backfill ends with its owners.
  PS_RETURN_IF_ERROR(source_->Start(input_partitions, restorer_.get(), opener_.get(),
                                    unowned_ ? &*unowned_ : nullptr,
                                    run_.stage == StageKind::kDecideRekeyed ||
                                        IsOwnerStage(run_.stage)));
  const bool decoding = run_.stage == StageKind::kDecideRekeyed || IsOwnerStage(run_.stage);
  const std::string who = run_.stage == StageKind::kRekey ? "re-keying stage: "
                          : kafka_.routing.enabled ? std::string(StageName(run_.stage)) + " stage: "
                                                   : "";
  spdlog::info("{}consuming {} as group {} ({} partitions), {} {} threads", who,
               kafka_.input_topic, kafka_.group_id, input_partitions, PipelineOptionsOf().threads,
               decoding ? "decoding" : "fingerprinting");
  started_ = true;
  return Status::Ok();
}

StatusOr<RunSummary> KafkaStage::Run() {
  if (!started_) PS_RETURN_IF_ERROR(Start());
  last_progress_ = clock_.SteadyNow();
  RunSummary summary;
  while (!stop_requested_.load()) {
    Status s = Step();
    if (!s.ok()) {
      metrics_->SetReady(false);
      pipeline_->Abandon();
      return s;
    }
    if (pipeline_->Done() || OwnersFinished()) {
      summary.backfill_complete = true;
      break;
    }
  }
  metrics_->SetReady(false);  // stopping: no longer a member to send traffic to
  PS_RETURN_IF_ERROR(Shutdown());
  metrics_->AddCounts(pipeline_->counts());
  LogProgress(true);
  summary.counts = pipeline_->counts();
  return summary;
}

Status KafkaStage::Step() {
  PS_RETURN_IF_ERROR(pipeline_->Step());
  metrics_->AddCounts(pipeline_->counts());
  LogProgress(false);
  sampler_->Maybe(*pipeline_, source_->consumer(), sink_->unacknowledged());
  if (unowned_) {
    unowned_->RemoveExpired([this](PartitionId p) { return source_->Owns(p, *pipeline_); });
  }
  return Status::Ok();
}

Status KafkaStage::Shutdown() {
  spdlog::info("stopping: finishing in-flight records");
  const Status result = pipeline_->Shutdown(run_.shutdown_timeout);
  source_->Close(*pipeline_);  // leaves the group
  sink_->Flush(std::chrono::seconds(1));
  return result;
}

void KafkaStage::LogProgress(bool force) {
  const auto now = clock_.SteadyNow();
  if (!force && now - last_progress_ < run_.progress_interval) return;
  const engine::VerdictCounts& counts = pipeline_->counts();
  const double secs = std::chrono::duration<double>(now - last_progress_).count();
  const double rate = secs > 0 ? (counts.records - records_at_last_progress_) / secs : 0;
  std::string lag;
  for (const pipeline::Pipeline::LaneInfo& lane : pipeline_->lanes()) {
    if (auto marks = source_->consumer().CachedWatermarks(lane.partition)) {
      lag += " " + std::to_string(lane.partition.value()) + ":" +
             std::to_string(std::max<int64_t>(0, marks->second - lane.next_offset.value()));
    }
  }
  spdlog::info("{} records ({:.0f}/s): {}; lag by partition:{}", counts.records, rate,
               counts.Summary(), lag.empty() ? " none assigned" : lag);
  last_progress_ = now;
  records_at_last_progress_ = counts.records;
}

}  // namespace pagesieve::run
