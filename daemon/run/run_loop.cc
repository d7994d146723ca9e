#include "run/run_loop.h"

#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

#include <numeric>

#include "common/duration.h"

namespace pagesieve::run {

using std::chrono::milliseconds;

RunLoop::RunLoop(kafka::KafkaOptions kafka, engine::SieveOptions sieve,
                 store::StateEnvOptions state, RunOptions run, const Clock& clock,
                 const std::atomic<bool>& stop_requested, RunMetrics* metrics)
    : kafka_(std::move(kafka)),
      sieve_options_(std::move(sieve)),
      state_options_(std::move(state)),
      run_(run),
      clock_(clock),
      stop_requested_(stop_requested),
      metrics_(metrics),
      sieve_(sieve_options_) {
  if (metrics_ == nullptr) {
    own_registry_ = std::make_unique<metrics::Registry>();
    own_metrics_ = std::make_unique<RunMetrics>(*own_registry_);
    metrics_ = own_metrics_.get();
  }
  pipeline_options_.processing_latency = &metrics_->processing_latency;
  pipeline_options_.batch_records = run_.batch_records;
  pipeline_options_.batch_linger = run_.batch_linger;
  pipeline_options_.checkpoint_interval = run_.checkpoint_interval;
  pipeline_options_.topics = kafka_.output;
  if (kafka_.changelog.enabled && stateful()) {
    pipeline_options_.changelog_topic = kafka_.changelog.topic;
  }
  if (run_.stage == Stage::kRekey) pipeline_options_.repartition_topic = kafka_.rekey.topic;
  pipeline_options_.changelog_records = &metrics_->changelog_records;
  pipeline_options_.body_field = sieve_options_.fields.body;
  pipeline_options_.body_base64_field = sieve_options_.fields.body_base64;
}

RunLoop::~RunLoop() {
  if (consumer_) {
    abandon_on_revoke_ = true;  // an error path: leave state at its last checkpoint
    consumer_->close();
  }
  assigned_.clear();
  restorer_.reset();
}

StatusOr<RunSummary> RunLoop::Run() {
  if (!started_) PS_RETURN_IF_ERROR(Start());
  started_at_ = last_progress_ = clock_.SteadyNow();
  RunSummary summary;
  for (;;) {
    if (stop_requested_.load()) break;
    Status s = Step(false);
    if (!s.ok()) {
      metrics_->SetReady(false);
      abandon_on_revoke_ = true;
      return s;
    }
    if (run_.until.kind != EndPosition::Kind::kForever && backfill_ends_known_ &&
        backfill_done_.size() == backfill_end_.size()) {
      summary.backfill_complete = true;
      break;
    }
  }
  metrics_->SetReady(false);  // stopping: no longer a member to send traffic to
  PS_RETURN_IF_ERROR(Shutdown());
  metrics_->AddCounts(counts_);
  LogProgress(true);
  summary.counts = counts_;
  return summary;
}

Status RunLoop::Step(bool stopping) {
  bool busy = restorer_ && restorer_->busy();
  for (const auto& [p, a] : assigned_) busy |= a.pipeline->pending_bytes() > 0;
  Consume(busy ? milliseconds(1) : milliseconds(100));
  if (!fatal_.ok()) return fatal_;
  PS_RETURN_IF_ERROR(AdvanceRestores());
  SubmitBatches(stopping);
  DispatchCompletions();
  PS_RETURN_IF_ERROR(DecideAll());
  metrics_->AddCounts(counts_);
  producer_->poll(0);  // delivery reports
  PS_RETURN_IF_ERROR(CheckpointAndCommit(false));
  ApplyBackpressure();
  PS_RETURN_IF_ERROR(CheckBackfillProgress());
  LogProgress(false);
  SampleMetrics(false);
  RemoveExpiredShards();
  return Status::Ok();
}

namespace {

ConsumedRecord Copy(RdKafka::Message& m, Clock::SteadyTime now) {  // headers() is not const
  ConsumedRecord r;
  r.consumed_at = now;
  r.topic = m.topic_name();
  r.partition = PartitionId(m.partition());
  r.offset = Offset(m.offset());
  if (m.key_pointer() != nullptr) {
    r.key.emplace(static_cast<const char*>(m.key_pointer()), m.key_len());
  }
  if (m.payload() != nullptr) r.value.assign(static_cast<const char*>(m.payload()), m.len());
  const RdKafka::MessageTimestamp ts = m.timestamp();
  if (ts.type != RdKafka::MessageTimestamp::MSG_TIMESTAMP_NOT_AVAILABLE) {
    r.timestamp = EventTimeFromMillis(ts.timestamp);
  }
  if (RdKafka::Headers* headers = m.headers()) {
    for (const RdKafka::Headers::Header& h : headers->get_all()) {
      r.headers.emplace_back(h.key(), h.value() ? std::string(static_cast<const char*>(h.value()),
                                                              h.value_size())
                                                : std::string());
    }
  }
  return r;
}

}  // namespace

void RunLoop::Consume(milliseconds wait) {
  // One wait, then whatever else is already fetched, up to a bound so the
  // other steps run often.
  for (int i = 0; i < 1000; ++i) {
    std::unique_ptr<RdKafka::Message> m(consumer_->consume(i == 0 ? wait.count() : 0));
    if (!fatal_.ok()) return;
    switch (m->err()) {
      case RdKafka::ERR_NO_ERROR: {
        auto it = assigned_.find(PartitionId(m->partition()));
        if (it == assigned_.end() || it->second.finished) break;
        auto end = backfill_end_.find(it->first);
        if (end != backfill_end_.end() && m->offset() >= end->second.value()) break;
        if (it->second.pipeline->Add(Copy(*m, clock_.SteadyNow()))) {
          metrics_->records_consumed.Inc();
        }
        break;
      }
      case RdKafka::ERR__TIMED_OUT:
        return;
      case RdKafka::ERR__PARTITION_EOF:
        break;
      default:
        // The broker going away and coming back is reported here; librdkafka
        // reconnects on its own. Nothing is decided meanwhile.
        spdlog::warn("consumer: {}", m->errstr());
        return;
    }
  }
}

void RunLoop::SubmitBatches(bool flush) {
  for (auto& [p, a] : assigned_) {
    uint64_t seq = 0;
    while (auto batch = a.pipeline->TakeBatch(flush, &seq)) {
      pool_->Submit(std::move(batch),
                    [this, id = a.id, seq](std::unique_ptr<engine::PrepareBatch> done) {
                      completions_.Push({id, seq, std::move(done)});
                    });
    }
  }
}

void RunLoop::DispatchCompletions() {
  for (CompletionQueue::Completion& c : completions_.TakeAll()) {
    for (std::chrono::nanoseconds t : c.batch->prepare_times) {
      metrics_->fingerprint_time.ObserveDuration(t);
    }
    for (auto& [p, a] : assigned_) {
      if (a.id == c.pipeline_id) a.pipeline->Prepared(c.seq, std::move(c.batch));
    }
    // A completion for a pipeline that is gone (revoked, lost) is dropped:
    // its records are decided again by whoever owns the partition now.
  }
}

Status RunLoop::DecideAll() {
  for (auto& [p, a] : assigned_) {
    PS_RETURN_IF_ERROR(a.pipeline->Decide(*sink_, run_.max_unacknowledged, &counts_));
  }
  return Status::Ok();
}

Status RunLoop::CheckpointAndCommit(bool force) {
  std::vector<std::pair<PartitionId, Offset>> offsets;
  for (auto& [p, a] : assigned_) {
    PS_ASSIGN_OR_RETURN(std::optional<Offset> done, a.pipeline->MaybeCheckpoint(*sink_, force));
    if (done) offsets.emplace_back(p, *done);
  }
  if (offsets.empty()) return Status::Ok();
  return Commit(offsets, /*sync=*/false);
}

Status RunLoop::Commit(const std::vector<std::pair<PartitionId, Offset>>& offsets, bool sync) {
  std::vector<RdKafka::TopicPartition*> parts;
  for (const auto& [p, offset] : offsets) {
    parts.push_back(
        RdKafka::TopicPartition::create(kafka_.input_topic, p.value(), offset.value()));
  }
  const RdKafka::ErrorCode err = sync ? consumer_->commitSync(parts) : consumer_->commitAsync(parts);
  RdKafka::TopicPartition::destroy(parts);
  metrics_->checkpoints.Inc(offsets.size());  // a commit follows every checkpoint
  // The shard's checkpoint is what a restart resumes from; a failed commit
  // only makes the group's view lag, so it is worth a warning, not a stop.
  if (err != RdKafka::ERR_NO_ERROR) spdlog::warn("offset commit failed: {}", RdKafka::err2str(err));
  return Status::Ok();
}

void RunLoop::ApplyBackpressure() {
  size_t pending = 0;
  for (const auto& [p, a] : assigned_) pending += a.pipeline->pending_bytes();
  const int64_t unacked = sink_->unacknowledged();
  const bool over = pending > run_.max_pending_bytes || unacked > run_.max_unacknowledged;
  const bool under = pending < run_.max_pending_bytes / 2 && unacked < run_.max_unacknowledged / 2;
  std::vector<RdKafka::TopicPartition*> change;
  for (auto& [p, a] : assigned_) {
    if (a.finished) continue;
    if ((over && !a.paused) || (under && a.paused)) {
      change.push_back(RdKafka::TopicPartition::create(kafka_.input_topic, p.value()));
      a.paused = over;
    }
  }
  if (change.empty()) return;
  if (over) {
    spdlog::debug("backpressure: pausing {} partitions ({} bytes pending, {} unacknowledged)",
                  change.size(), pending, unacked);
    consumer_->pause(change);
  } else {
    consumer_->resume(change);
  }
  RdKafka::TopicPartition::destroy(change);
}

Status RunLoop::CheckBackfillProgress() {
  if (run_.until.kind != EndPosition::Kind::kForever && !backfill_ends_known_ &&
      run_.upstream_done != nullptr && run_.upstream_done->load()) {
    // Everything the re-keying stage will publish is acknowledged: this
    // stage's ends are the repartition topic's ends now.
    PS_RETURN_IF_ERROR(ComputeBackfillEnds());
  }
  for (auto it = assigned_.begin(); it != assigned_.end();) {
    auto end = backfill_end_.find(it->first);
    PartitionPipeline& pipeline = *it->second.pipeline;
    if (end == backfill_end_.end() || pipeline.next_offset() < end->second || !pipeline.Drained()) {
      ++it;
      continue;
    }
    PS_ASSIGN_OR_RETURN(std::optional<Offset> done, pipeline.MaybeCheckpoint(*sink_, true));
    if (done) PS_RETURN_IF_ERROR(Commit({{it->first, *done}}, /*sync=*/true));
    if (!pipeline.Drained() || !pipeline.Checkpointed()) {
      ++it;  // shipping its changelog records: CheckpointAndCommit() goes on with it
      continue;
    }
    spdlog::info("backfill: {}-{} reached offset {}", kafka_.input_topic, it->first.value(),
                 end->second.value());
    std::vector<RdKafka::TopicPartition*> parts = {
        RdKafka::TopicPartition::create(kafka_.input_topic, it->first.value())};
    consumer_->pause(parts);
    RdKafka::TopicPartition::destroy(parts);
    backfill_done_.insert(it->first);
    it = assigned_.erase(it);  // closes the shard; the partition stays ours, paused
  }
  return Status::Ok();
}

void RunLoop::LogProgress(bool force) {
  const auto now = clock_.SteadyNow();
  if (!force && now - last_progress_ < run_.progress_interval) return;
  const double secs = std::chrono::duration<double>(now - last_progress_).count();
  const double rate = secs > 0 ? (counts_.records - records_at_last_progress_) / secs : 0;
  std::string lag;
  for (const auto& [p, a] : assigned_) {
    int64_t low = 0, high = 0;
    if (consumer_->get_watermark_offsets(kafka_.input_topic, p.value(), &low, &high) ==
            RdKafka::ERR_NO_ERROR &&
        high >= 0) {
      lag += " " + std::to_string(p.value()) + ":" +
             std::to_string(std::max<int64_t>(0, high - a.pipeline->next_offset().value()));
    }
  }
  spdlog::info("{} records ({:.0f}/s): {}; lag by partition:{}", counts_.records, rate,
               counts_.Summary(), lag.empty() ? " none assigned" : lag);
  last_progress_ = now;
  records_at_last_progress_ = counts_.records;
}

Status RunLoop::Shutdown() {
  spdlog::info("stopping: finishing in-flight records");
  const auto deadline = clock_.SteadyNow() + run_.shutdown_timeout;
  std::vector<RdKafka::TopicPartition*> all;
  for (const auto& [p, a] : assigned_) {
    all.push_back(RdKafka::TopicPartition::create(kafka_.input_topic, p.value()));
  }
  consumer_->pause(all);  // no more fetching; what is consumed gets its verdict
  RdKafka::TopicPartition::destroy(all);

  Status result;
  for (auto& [p, a] : assigned_) {
    if (!DrainPartition(a, deadline)) {
      result = Status::DeadlineExceeded(
          "shutdown: " + kafka_.input_topic + "-" + std::to_string(p.value()) +
          " could not be finished within " + FormatDuration(run_.shutdown_timeout) +
          "; its records after the last checkpoint will be processed again on the next start");
      break;
    }
  }
  if (!fatal_.ok()) result = fatal_;
  abandon_on_revoke_ = true;  // everything that could be finished is
  assigned_.clear();
  consumer_->close();  // leaves the group
  consumer_.reset();
  producer_->flush(1000);
  return result;
}

}  // namespace pagesieve::run
