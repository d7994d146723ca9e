#include "run/changelog_restorer.h"

#include <spdlog/spdlog.h>

#include <thread>

namespace pagesieve::run {
namespace {

using std::chrono::milliseconds;

constexpr Duration kProgressInterval = std::chrono::seconds(5);
// How often a batch RocksDB turned away is offered again within a step.
constexpr Duration kStallRetry = std::chrono::milliseconds(5);

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
  // A topic created a moment ago may not have its leaders yet, and a broker
  // may be changing leaders: those pass, so they are waited for.
  PS_ASSIGN_OR_RETURN(auto marks, consumer_->AwaitWatermarks(
                                      p, clock_, clock_.SteadyNow() + kafka_.startup_timeout));
  const Offset low(marks.first), high(marks.second);
  // A new partition: no local state and nothing shipped. Opening a shard
  // only to learn that would cost as much as the open that follows
  // (a quarter of a short run's CPU with four fresh partitions).
  if (low == high && !state_.HasShard(kafka_.input_topic, p)) return false;
  PS_ASSIGN_OR_RETURN(std::unique_ptr<store::ShardRestore> restore,
                      state_.OpenRestore(kafka_.input_topic, p, shard_options_));
  const std::optional<Offset> local = restore->changelog_next();
  // One beyond the end: the commit marker of the shard's last transaction,
  // which the broker may not have written yet.
  const bool in_history = local && *local >= low && local->value() <= high.value() + 1;
  if (in_history && *local >= high) return false;                            // current
  if (in_history) return StartRestore(p, std::move(restore), *local, high);  // behind: catch up
  if (!restore->checkpointed_offset()) {
    if (low == high) return false;  // nothing shipped yet: a new partition
    return StartRestore(p, std::move(restore), low, high);
  }
  // Local state the changelog has not received: kept with the changelog off,
  // or written to a changelog since recreated (its position is beyond the
  // end) or cut (before the start).
  if (low == high) {
    PS_RETURN_IF_ERROR(KeepLocal(p, *restore, std::nullopt));
    return false;
  }
  // Another writer's history is there: whichever is further into the input
  // wins, which takes reading the changelog's tail first.
  Job job;
  job.restore = std::move(restore);
  job.low = low;
  job.end = high;
  job.probe.emplace(low, high);
  job.next = job.probe->from();
  job.started_at = job.last_log = clock_.SteadyNow();
  metrics_.restore_progress.WithLabels({std::to_string(p.value())}).Set(0);
  jobs_[p] = std::move(job);
  PS_RETURN_IF_ERROR(Reassign());
  return true;
}

StatusOr<bool> ChangelogRestorer::StartRestore(PartitionId p,
                                               std::unique_ptr<store::ShardRestore> restore,
                                               Offset start, Offset end) {
  Job job;
  job.restore = std::move(restore);
  job.start = job.next = start;
  job.end = end;
  job.started_at = job.last_log = clock_.SteadyNow();
  LogStart(p, job);
  metrics_.restore_progress.WithLabels({std::to_string(p.value())}).Set(0);
  jobs_[p] = std::move(job);
  PS_RETURN_IF_ERROR(Reassign());
  return true;
}

void ChangelogRestorer::LogStart(PartitionId p, const Job& job) const {
  spdlog::info("restoring shard {} from {} offsets {}..{} ({} records at most)",
               Name(kafka_.input_topic, p), Name(kafka_.changelog.topic, p), job.start.value(),
               job.end.value(), job.end.value() - job.start.value());
}

Status ChangelogRestorer::KeepLocal(PartitionId p, store::ShardRestore& restore,
                                    std::optional<Offset> changelog_latest) {
  spdlog::info(
      "shard {}: keeping the local state (checkpoint at input offset {}), which {} "
      "does not hold{}; its next checkpoint ships it whole",
      Name(kafka_.input_topic, p), restore.checkpointed_offset()->value(),
      Name(kafka_.changelog.topic, p),
      changelog_latest ? " and which is ahead of its latest checkpoint (input offset " +
                             std::to_string(changelog_latest->value()) + ")"
                       : std::string());
  // Without a position the shard seeds the changelog (Shard::ships_snapshot).
  if (!restore.changelog_next()) return Status::Ok();
  return restore.ForgetChangelogPosition();
}

Status ChangelogRestorer::EndProbeWindow(PartitionId p, std::vector<Restored>* done) {
  Job& job = jobs_.at(p);
  if (!job.probe->WindowDone()) {
    job.next = job.probe->from();
    return Reassign();
  }
  const Offset local = *job.restore->checkpointed_offset();
  const std::optional<Offset> latest = job.probe->latest();
  if (!latest || local > *latest) {
    PS_RETURN_IF_ERROR(KeepLocal(p, *job.restore, latest));
    metrics_.restore_progress.WithLabels({std::to_string(p.value())}).Set(1);
    jobs_.erase(p);  // closes the shard for the partition's pipeline to open
    done->push_back({p, nullptr});
    return Reassign();
  }
  spdlog::info(
      "shard {}: local state (checkpoint at input offset {}) is not in the changelog's history "
      "and behind its latest checkpoint (input offset {}); restoring it anew",
      Name(kafka_.input_topic, p), local.value(), latest->value());
  PS_RETURN_IF_ERROR(job.restore->Reset());
  job.probe.reset();
  job.start = job.next = job.low;
  job.started_at = job.last_log = clock_.SteadyNow();
  LogStart(p, job);
  return Reassign();
}

Status ChangelogRestorer::AdvanceProbe(PartitionId p, const kafka::Consumed& m,
                                       std::vector<Restored>* done) {
  Job& job = jobs_.at(p);
  // Compaction can leave the window's last offsets empty: a record past it
  // (read before) ends it as well.
  if (m.offset() < job.probe->to()) {
    PS_RETURN_IF_ERROR(job.probe->Add(m.key().value_or(std::string_view()), m.value())
                           .WithContext("reading the tail of " + Name(kafka_.changelog.topic, p)));
  }
  job.next = m.offset().Next();
  if (job.next < job.probe->to()) return Status::Ok();
  return EndProbeWindow(p, done);
}

StatusOr<bool> ChangelogRestorer::Unstall() {
  bool stalled = false;
  for (auto& [p, job] : jobs_) {
    if (!job.restore) continue;
    PS_RETURN_IF_ERROR(
        job.restore->Unstall().WithContext("restoring " + Name(kafka_.input_topic, p)));
    stalled = stalled || job.restore->stalled();
  }
  return stalled;
}

Status ChangelogRestorer::Reassign() {
  std::vector<std::pair<PartitionId, Offset>> positions;
  for (const auto& [p, job] : jobs_) positions.emplace_back(p, job.next);
  return consumer_->AssignOnly(positions).WithContext("restore consumer");
}

StatusOr<std::vector<ChangelogRestorer::Restored>> ChangelogRestorer::Advance(Duration budget) {
  std::vector<Restored> done;
  const auto deadline = clock_.SteadyNow() + budget;
  // RocksDB stalls writers while its flushes are behind (a slow disk): the
  // batch it turned away is offered again first, and while any is waiting
  // nothing more is read, without holding up the loop that polls the group.
  // Within this step's budget it is offered every few milliseconds, as
  // long as a step spends reading anyway, rather than spinning.
  PS_ASSIGN_OR_RETURN(bool stalled, Unstall());
  for (int i = 0; stalled && i < budget / kStallRetry && clock_.SteadyNow() < deadline; ++i) {
    std::this_thread::sleep_for(kStallRetry);
    PS_ASSIGN_OR_RETURN(stalled, Unstall());
  }
  if (stalled) {
    metrics_.restore_stalls.Increment();
    return done;
  }
  while (!jobs_.empty() && !stalled && clock_.SteadyNow() < deadline) {
    const kafka::Consumed m = consumer_->Consume(std::chrono::milliseconds(10));
    auto it = jobs_.find(m.partition());
    switch (m.kind()) {
      case kafka::Consumed::Kind::kRecord: {
        if (it == jobs_.end() || m.offset() < it->second.next) break;
        if (it->second.probe) {
          PS_RETURN_IF_ERROR(AdvanceProbe(it->first, m, &done));
          break;
        }
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
          PS_RETURN_IF_ERROR(Finish(p, &done));  // writes what waits, off this thread
        } else {
          stalled = job.restore->stalled();
          LogProgress(p, job);
        }
        break;
      }
      case kafka::Consumed::Kind::kPartitionEnd:
        // Compaction can leave the last offsets before `end` empty.
        if (it == jobs_.end()) break;
        if (it->second.probe) {
          if (m.offset() >= it->second.probe->to()) {
            PS_RETURN_IF_ERROR(EndProbeWindow(it->first, &done));
          }
        } else if (m.offset() >= it->second.end) {
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
    if (!job.probe && job.next >= job.end) empty.push_back(p);
  }
  for (PartitionId p : empty) PS_RETURN_IF_ERROR(Finish(p, &done));
  return done;
}

Status ChangelogRestorer::Finish(PartitionId p, std::vector<Restored>* done) {
  Job& job = jobs_.at(p);
  metrics_.restore_progress.WithLabels({std::to_string(p.value())}).Set(1);
  // Shared only to fit std::function, which must be copyable: the finish is
  // never copied, holds the only reference and closes the shard when it
  // ends.
  std::shared_ptr<store::ShardRestore> restore = std::move(job.restore);
  const Clock::SteadyTime read_at = clock_.SteadyNow();
  const double read_secs = Seconds(job.started_at, read_at);
  const Offset end = job.end;
  const std::string name = Name(kafka_.input_topic, p);
  const Clock& clock = clock_;
  done->push_back({p, [restore = std::move(restore), end, name, read_at, read_secs,
                       &clock]() mutable -> Status {
                     PS_RETURN_IF_ERROR(restore->Finish(end).WithContext("restoring " + name));
                     const uint64_t records = restore->records();
                     spdlog::info(
                         "restored shard {}: {} records ({:.1f} MB) read in {:.2f} s ({:.0f} "
                         "records/s), durable {:.2f} s later; resuming its input at offset {}",
                         name, records, restore->bytes() / 1e6, read_secs,
                         read_secs > 0 ? records / read_secs : 0.0,
                         Seconds(read_at, clock.SteadyNow()),
                         restore->checkpointed_offset()
                             ? std::to_string(restore->checkpointed_offset()->value())
                             : std::string("of the group's commit"));
                     restore.reset();  // the shard's lock, for its open
                     return Status::Ok();
                   }});
  jobs_.erase(p);
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
