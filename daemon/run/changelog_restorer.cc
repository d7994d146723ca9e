#include "run/changelog_restorer.h"

#include <spdlog/spdlog.h>

namespace pagesieve::run {
namespace {

using std::chrono::milliseconds;

constexpr Duration kProgressInterval = std::chrono::seconds(5);

std::string Name(const std::string& topic, PartitionId p) {
  return topic + "-" + std::to_string(p.value());
}

double Seconds(Clock::SteadyTime from, Clock::SteadyTime to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

ChangelogRestorer::ChangelogRestorer(const kafka::KafkaOptions& kafka, store::StateEnv& state,
                                     const store::ShardOptions& shard_options, const Clock& clock,
                                     RunMetrics& metrics)
    : kafka_(kafka),
      state_(state),
      shard_options_(shard_options),
      clock_(clock),
      metrics_(metrics) {}

ChangelogRestorer::~ChangelogRestorer() {
  jobs_.clear();
  consumer_.reset();  // closes it
}

Status ChangelogRestorer::Init() {
  PS_ASSIGN_OR_RETURN(consumer_, kafka::Consumer::CreateReader(kafka_, kafka_.changelog.topic));
  return Status::Ok();
}

StatusOr<bool> ChangelogRestorer::Begin(PartitionId p) {
  const std::string& topic = kafka_.changelog.topic;
  // A topic created a moment ago may not have its leaders yet, and a broker
  // may be changing leaders: those pass, so they are waited for.
  PS_ASSIGN_OR_RETURN(auto marks, consumer_->AwaitWatermarks(
                                      p, clock_, clock_.SteadyNow() + kafka_.startup_timeout));
  const auto [low, high] = marks;
  PS_ASSIGN_OR_RETURN(std::unique_ptr<store::ShardRestore> restore,
                      state_.OpenRestore(kafka_.input_topic, p, shard_options_));
  const std::optional<Offset> local = restore->changelog_next();
  const std::string shard = Name(kafka_.input_topic, p);
  if (local && local->value() >= high) {
    // One beyond: the commit marker of the shard's last transaction, which
    // the broker may not have written yet.
    if (local->value() > high + 1) {
      spdlog::warn(
          "shard {} has changelog position {}, beyond the end {} of {}: was the "
          "changelog topic recreated? Using the local shard as it is",
          shard, local->value(), high, Name(topic, p));
    }
    return false;  // current
  }
  if (!local && low == high) return false;  // nothing shipped yet: the local shard is all there is
  Offset start(low);
  if (local && local->value() >= low) {
    start = *local;  // behind: catch up
  } else if (restore->checkpointed_offset()) {
    // Local state the changelog cannot bring up to date (written without
    // one, or older than the records it still has): start over from it.
    spdlog::info("shard {}: local state is not in the changelog's history; restoring it anew",
                 shard);
    PS_RETURN_IF_ERROR(restore->Reset());
  }
  Job job;
  job.restore = std::move(restore);
  job.start = job.next = start;
  job.end = Offset(high);
  job.started_at = job.last_log = clock_.SteadyNow();
  spdlog::info("restoring shard {} from {} offsets {}..{} ({} records at most)", shard,
               Name(topic, p), start.value(), high, high - start.value());
  metrics_.restore_progress.WithLabels({std::to_string(p.value())}).Set(0);
  jobs_[p] = std::move(job);
  PS_RETURN_IF_ERROR(Reassign());
  return true;
}

Status ChangelogRestorer::Reassign() {
  std::vector<std::pair<PartitionId, Offset>> positions;
  for (const auto& [p, job] : jobs_) positions.emplace_back(p, job.next);
  return consumer_->AssignOnly(positions).WithContext("restore consumer");
}

StatusOr<std::vector<PartitionId>> ChangelogRestorer::Advance(Duration budget) {
  std::vector<PartitionId> done;
  const auto deadline = clock_.SteadyNow() + budget;
  while (!jobs_.empty() && clock_.SteadyNow() < deadline) {
    const kafka::Consumed m = consumer_->Consume(std::chrono::milliseconds(10));
    auto it = jobs_.find(m.partition());
    switch (m.kind()) {
      case kafka::Consumed::Kind::kRecord: {
        if (it == jobs_.end() || m.offset() < it->second.next) break;
        const PartitionId p = it->first;
        Job& job = it->second;
        const std::string_view key = m.key().value_or(std::string_view());
        const std::optional<std::string_view> value = m.value();
        if (m.offset() < job.end) {
          PS_RETURN_IF_ERROR(job.restore->Apply(key, value)
                                 .WithContext("restoring " + Name(kafka_.input_topic, p) +
                                              " from changelog offset " +
                                              std::to_string(m.offset().value())));
          metrics_.restored_records.Increment();
          metrics_.restored_bytes.Increment(
              static_cast<double>(key.size() + (value ? value->size() : 0)));
        }
        job.next = m.offset().Next();
        if (job.next >= job.end) {
          PS_RETURN_IF_ERROR(Finish(p, &done));
        } else {
          LogProgress(p, job);
        }
        break;
      }
      case kafka::Consumed::Kind::kPartitionEnd:
        // Compaction can leave the last offsets before `end` empty.
        if (it != jobs_.end() && m.offset() >= it->second.end) {
          PS_RETURN_IF_ERROR(Finish(it->first, &done));
        }
        break;
      case kafka::Consumed::Kind::kTimedOut:
        break;
      case kafka::Consumed::Kind::kError:
        // A broker away and back: librdkafka retries on its own.
        spdlog::warn("restore consumer: {}", m.error());
        return done;
    }
  }
  // Jobs with nothing to read finish without a message.
  std::vector<PartitionId> empty;
  for (const auto& [p, job] : jobs_) {
    if (job.next >= job.end) empty.push_back(p);
  }
  for (PartitionId p : empty) PS_RETURN_IF_ERROR(Finish(p, &done));
  return done;
}

Status ChangelogRestorer::Finish(PartitionId p, std::vector<PartitionId>* done) {
  Job& job = jobs_.at(p);
  PS_RETURN_IF_ERROR(
      job.restore->Finish(job.end).WithContext("restoring " + Name(kafka_.input_topic, p)));
  const auto now = clock_.SteadyNow();
  const double secs = Seconds(job.started_at, now);
  const uint64_t records = job.restore->records();
  spdlog::info(
      "restored shard {}: {} records ({:.1f} MB) in {:.2f} s ({:.0f} records/s); "
      "resuming its input at offset {}",
      Name(kafka_.input_topic, p), records, job.restore->bytes() / 1e6, secs,
      secs > 0 ? records / secs : 0.0,
      job.restore->checkpointed_offset()
          ? std::to_string(job.restore->checkpointed_offset()->value())
          : std::string("of the group's commit"));
  metrics_.restore_progress.WithLabels({std::to_string(p.value())}).Set(1);
  jobs_.erase(p);  // closes the shard for the partition's pipeline to open
  done->push_back(p);
  return Reassign();
}

void ChangelogRestorer::LogProgress(PartitionId p, Job& job) {
  const auto now = clock_.SteadyNow();
  const int64_t total = job.end.value() - job.start.value();
  const int64_t read = job.next.value() - job.start.value();
  const double ratio = total > 0 ? static_cast<double>(read) / total : 1.0;
  metrics_.restore_progress.WithLabels({std::to_string(p.value())}).Set(ratio);
  if (now - job.last_log < kProgressInterval) return;
  job.last_log = now;
  const double secs = Seconds(job.started_at, now);
  const double rate = secs > 0 ? read / secs : 0;
  spdlog::info(
      "restoring shard {}: {} of {} records ({:.0f} %), {:.1f} MB, {:.0f} records/s, "
      "about {:.0f} s left",
      Name(kafka_.input_topic, p), read, total, ratio * 100, job.restore->bytes() / 1e6, rate,
      rate > 0 ? (total - read) / rate : 0.0);
}

void ChangelogRestorer::Cancel(PartitionId p) {
  if (jobs_.erase(p) == 0) return;
  spdlog::info("restore of shard {} stopped: the partition was revoked",
               Name(kafka_.input_topic, p));
  (void)Reassign();
}

}  // namespace pagesieve::run
