#include "run/kafka_source.h"

#include <spdlog/spdlog.h>

namespace pagesieve::run {
namespace {

// How often a backfill member that has read its own partitions to their
// ends asks the group's offsets of the others, and how long it waits.
constexpr Duration kGroupEndsInterval = std::chrono::seconds(1);
constexpr Duration kGroupEndsTimeout = std::chrono::seconds(1);

}  // namespace

StatusOr<std::unique_ptr<KafkaSource>> KafkaSource::Create(const kafka::KafkaOptions& kafka,
                                                           const RunOptions& run,
                                                           RunMetrics& metrics,
                                                           const Clock& clock) {
  std::unique_ptr<KafkaSource> source(new KafkaSource(kafka, run, metrics, clock));
  PS_ASSIGN_OR_RETURN(source->consumer_,
                      kafka::Consumer::CreateMember(kafka, kafka.input_topic, *source));
  return source;
}

KafkaSource::~KafkaSource() = default;

Status KafkaSource::Start(int32_t input_partitions, ChangelogRestorer* restorer,
                          pipeline::BackgroundOpener* opener, UnownedShards* unowned,
                          bool ends_come_later) {
  input_partitions_ = input_partitions;
  assignment_.emplace(kafka_, run_, *consumer_, restorer, opener, unowned, metrics_, clock_);
  if (!ends_come_later) {
    PS_RETURN_IF_ERROR(ends_.Compute(*consumer_, input_partitions, clock_,
                                     clock_.SteadyNow() + kafka_.startup_timeout));
  }
  return consumer_->Subscribe();
}

void KafkaSource::Close(pipeline::Lanes& lanes) {
  lanes_ = &lanes;
  consumer_->Close();  // leaves the group: revokes what is left
}

Status KafkaSource::Poll(Duration wait, pipeline::Lanes& lanes) {
  lanes_ = &lanes;
  if (run_.stage == StageKind::kDecideRekeyed && !ends_.known() && ends_.enabled() &&
      run_.upstream_done != nullptr && run_.upstream_done->load()) {
    // Everything the re-keying stage will publish is acknowledged: this
    // stage's ends are the repartition topic's ends now. A partition already
    // read to there (its last records transaction markers) says so no more.
    PS_RETURN_IF_ERROR(ends_.Compute(*consumer_, input_partitions_, clock_,
                                     clock_.SteadyNow() + kafka_.startup_timeout));
    for (const auto& [p, seen] : ends_seen_) {
      if (const std::optional<Offset> end = ends_.EndOf(p); end && seen >= *end) {
        lanes.SkipTo(p, *end);
      }
    }
  }
  PS_RETURN_IF_ERROR(assignment_->Advance(lanes));
  LearnEndsReachedElsewhere(lanes);
  if (assignment_->restoring()) wait = std::min(wait, Duration(1));
  // One wait, then whatever else is already fetched, up to a bound so the
  // pipeline's other steps run often.
  for (int i = 0; i < 1000; ++i) {
    const kafka::Consumed m = consumer_->Consume(i == 0 ? wait : Duration(0));
    PS_RETURN_IF_ERROR(assignment_->fatal());
    switch (m.kind()) {
      case kafka::Consumed::Kind::kRecord:
        Deliver(m, lanes);
        break;
      case kafka::Consumed::Kind::kTimedOut:
        return Status::Ok();
      case kafka::Consumed::Kind::kPartitionEnd:
        // The last offsets may be transaction markers, never delivered: at
        // the end of the log the backfill's end is reached all the same.
        ends_seen_[m.partition()] = m.offset();
        if (const std::optional<Offset> end = ends_.EndOf(m.partition());
            end && m.offset() >= *end) {
          lanes.SkipTo(m.partition(), *end);
        }
        break;
      case kafka::Consumed::Kind::kError:
        // The broker going away and coming back is reported here; librdkafka
        // reconnects on its own. Nothing is decided meanwhile.
        spdlog::warn("consumer: {}", m.error());
        return Status::Ok();
    }
  }
  return Status::Ok();
}

void KafkaSource::LearnEndsReachedElsewhere(const pipeline::Lanes& lanes) {
  // Only the one-stage path, the one tested: a re-keyed input's two stages
  // and routed dedup still end per process (docs/daemon.md, Backfills).
  // A --from applies to each partition the first time this process is
  // assigned it, so a partition another member finished would be read
  // again here: only a backfill that resumes where the group is ends by
  // the group's offsets.
  if (run_.stage != StageKind::kDecide || run_.from.kind != StartPosition::Kind::kCheckpoint ||
      !ends_.enabled() || !ends_.known() || ends_.Complete()) {
    return;
  }
  const Clock::SteadyTime now = clock_.SteadyNow();
  if (now < next_group_check_) return;
  next_group_check_ = now + kGroupEndsInterval;
  // Only while nothing is left to read here: the request blocks the loop
  // (up to its timeout while another member's transaction is open).
  const std::vector<PartitionId> unreached = ends_.Unreached();
  for (PartitionId p : unreached) {
    if (lanes.IsOpen(p)) return;
  }
  StatusOr<std::map<PartitionId, Offset>> committed =
      consumer_->Committed(unreached, kGroupEndsTimeout);
  if (!committed.ok()) {
    spdlog::debug("backfill: the group's offsets: {}", committed.status().ToString());
    return;  // asked again at the next check
  }
  for (const auto& [p, offset] : *committed) {
    const std::optional<Offset> end = ends_.EndOf(p);
    if (!end || offset < *end) continue;
    spdlog::info("backfill: {}-{} read to offset {} by another member of the group",
                 consumer_->topic(), p.value(), end->value());
    ends_.ReachedElsewhere(p);
  }
}

void KafkaSource::Deliver(const kafka::Consumed& m, pipeline::Lanes& lanes) {
  const PartitionId p = m.partition();
  const std::optional<Offset> end = ends_.EndOf(p);
  if (end && m.offset() >= *end) {  // the live run's, not the backfill's
    lanes.SkipTo(p, *end);          // whatever lay before it was not a record
    return;
  }
  pipeline::SourceRecord r;
  r.stream = consumer_->topic();
  r.partition = p;
  r.offset = m.offset();
  r.lane_offset = m.offset();
  if (auto key = m.key()) r.key.emplace(*key);
  r.value = m.SharedValue();
  r.timestamp = m.timestamp();
  r.headers = m.headers();
  r.default_event_id =
      r.stream + "-" + std::to_string(p.value()) + "-" + std::to_string(r.offset.value());
  r.position_in_verdict = true;
  r.received_at = clock_.SteadyNow();
  if (lanes.Add(p, std::move(r))) metrics_.records_consumed.Increment();
}

void KafkaSource::Commit(const std::vector<std::pair<PartitionId, Offset>>& offsets, bool sync) {
  // The shard's checkpoint is what a restart resumes from; a failed commit
  // only makes the group's view lag, so it is worth a warning, not a stop.
  metrics_.checkpoints.Increment(
      static_cast<double>(offsets.size()));  // a commit follows every checkpoint
  const Status s = consumer_->Commit(offsets, sync);
  if (!s.ok()) spdlog::warn("{}", s.message());
}

void KafkaSource::Finished(PartitionId p) {
  spdlog::info("backfill: {}-{} reached offset {}", consumer_->topic(), p.value(),
               ends_.EndOf(p).value_or(Offset(-1)).value());
  consumer_->Pause({p});  // the partition stays ours, paused
  ends_.Reached(p);
}

bool KafkaSource::Owns(PartitionId p, const pipeline::Lanes& lanes) const {
  return lanes.IsOpen(p) || (assignment_ && assignment_->pending(p)) || ends_.reached(p);
}

void KafkaSource::OnAssigned(const std::vector<PartitionId>& partitions) {
  if (lanes_ != nullptr && assignment_) assignment_->OnAssigned(partitions, *lanes_);
}

void KafkaSource::OnRevoked(const std::vector<PartitionId>& partitions) {
  for (PartitionId p : partitions) ends_seen_.erase(p);
  if (lanes_ != nullptr && assignment_) assignment_->OnRevoked(partitions, *lanes_);
}

void KafkaSource::OnLost(const std::vector<PartitionId>& partitions) {
  for (PartitionId p : partitions) ends_seen_.erase(p);
  if (lanes_ != nullptr && assignment_) assignment_->OnLost(partitions, *lanes_);
}

}  // namespace pagesieve::run
