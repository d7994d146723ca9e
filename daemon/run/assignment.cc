#include "run/assignment.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace pagesieve::run {
namespace {

constexpr Duration kQueryTimeout = std::chrono::seconds(10);

// How long one round of asking the brokers where waiting partitions start
// may hold the consuming thread: short beside max.poll.interval.ms, long
// enough that a partition whose answers come at once is taken up at once.
constexpr Duration kAskingRound = std::chrono::milliseconds(500);

}  // namespace

Assignment::Assignment(const kafka::KafkaOptions& kafka, const RunOptions& run,
                       kafka::Consumer& consumer, ChangelogRestorer* restorer,
                       pipeline::BackgroundOpener* opener, UnownedShards* unowned,
                       RunMetrics& metrics, const Clock& clock)
    : kafka_(kafka),
      run_(run),
      consumer_(consumer),
      restorer_(restorer),
      opener_(opener),
      unowned_(unowned),
      metrics_(metrics),
      clock_(clock) {}

StatusOr<Assignment::Answers> Assignment::Ask(PartitionId p, Clock::SteadyTime deadline) {
  Answers answers;
  PS_ASSIGN_OR_RETURN(const auto marks, consumer_.AwaitWatermarks(p, clock_, deadline));
  answers.low = marks.first;
  answers.high = marks.second;
  if (started_once_.count(p) == 0) {
    switch (run_.from.kind) {
      case StartPosition::Kind::kEarliest:
        answers.from = Offset(answers.low);
        return answers;
      case StartPosition::Kind::kLatest:
        answers.from = Offset(answers.high);
        return answers;
      case StartPosition::Kind::kTime: {
        // Within the round, like the answers above (an error here is
        // Unavailable too, and asked again on the next round).
        const Duration timeout = std::clamp<Duration>(
            std::chrono::duration_cast<Duration>(deadline - clock_.SteadyNow()),
            std::chrono::milliseconds(100), kQueryTimeout);
        StatusOr<std::optional<Offset>> found =
            consumer_.OffsetForTime(p, run_.from.time.AsTimePoint(), timeout);
        if (!found.ok()) return found.status().WithContext("offsets for --from time");
        answers.from = found->value_or(Offset(answers.high));  // none that late: the end
        return answers;
      }
      case StartPosition::Kind::kCheckpoint:
        break;
    }
  }
  // Unknown is not "none": taken for none, it would publish again what a
  // committed transaction published, or read a stateless stage's partition
  // from its start.
  PS_ASSIGN_OR_RETURN(answers.committed, consumer_.AwaitCommitted(p, clock_, deadline));
  return answers;
}

Offset Assignment::StartOffset(const Answers& answers, const std::optional<Offset>& checkpointed,
                               std::optional<Offset>* replay_until) const {
  if (answers.from) return *answers.from;
  // The shard's checkpoint wins over the group's committed offset: state and
  // position were saved together. Exactly once, a committed offset beyond
  // it means the records between were published in a committed
  // transaction: they are decided again for the state only.
  if (checkpointed) {
    const Offset start(std::clamp(checkpointed->value(), answers.low, answers.high));
    if (kafka_.processing.exactly_once && answers.committed && *answers.committed > start) {
      *replay_until = *answers.committed;
    }
    return start;
  }
  if (answers.committed) {
    // State that is missing or behind (a new machine): the records from the
    // committed offset on are decided against what state there is.
    return Offset(std::clamp(answers.committed->value(), answers.low, answers.high));
  }
  return Offset(answers.low);  // a new group: from the earliest record
}

StatusOr<std::pair<PartitionId, Offset>> Assignment::Open(PartitionId p,
                                                          std::unique_ptr<store::Shard> shard,
                                                          const Answers& answers,
                                                          pipeline::Lanes& lanes) {
  PS_ASSIGN_OR_RETURN(std::optional<Offset> checkpointed,
                      shard ? lanes.OpenWith(p, std::move(shard)) : lanes.Open(p));
  started_once_.insert(p);
  std::optional<Offset> replay_until;
  const Offset start = StartOffset(answers, checkpointed, &replay_until);
  lanes.StartAt(p, start);
  if (replay_until) {
    lanes.ReplayUntil(p, *replay_until);
    spdlog::info(
        "{}-{}: the shard is behind the committed offset {}; deciding the records "
        "between again for the state only",
        consumer_.topic(), p.value(), replay_until->value());
  }
  if (unowned_ != nullptr) unowned_->Owned(p);
  spdlog::info("assigned {}-{}: starting at offset {}{}", consumer_.topic(), p.value(),
               start.value(), checkpointed ? " (shard checkpoint)" : "");
  return std::make_pair(p, start);
}

Status Assignment::TakeUp(Shards partitions, pipeline::Lanes& lanes, bool always_assign) {
  // A broker restarting moves leaders and reloads its group coordinator, and
  // an offset stays unstable while a dead member's transaction is open (until
  // the transaction times out): each is waited out, up to the deadline, but
  // never on the consuming thread for long. A partition without its answers
  // stays given-but-not-taken-up and is asked again on the next Advance().
  const Clock::SteadyTime now = clock_.SteadyNow();
  for (auto& [p, shard] : partitions) {
    unpositioned_[p] = Unpositioned{
        std::move(shard), now + kafka_.startup_timeout + kafka_.processing.transaction_timeout};
  }
  const Clock::SteadyTime round = now + kAskingRound;
  std::vector<std::pair<PartitionId, Offset>> positions;
  for (auto it = unpositioned_.begin(); it != unpositioned_.end();) {
    const PartitionId p = it->first;
    Unpositioned& waiting = it->second;
    const std::string context = "partition " + std::to_string(p.value());
    StatusOr<Answers> answers = Ask(p, std::min(round, waiting.deadline));
    if (!answers.ok()) {
      if (answers.status().code() != StatusCode::kUnavailable ||
          clock_.SteadyNow() >= waiting.deadline) {
        return answers.status().WithContext(context);
      }
      if (!waiting.told) {
        spdlog::info("{}-{}: waiting for the brokers to say where it starts ({})",
                     consumer_.topic(), p.value(), answers.status().message());
        waiting.told = true;
      }
      ++it;
      continue;
    }
    StatusOr<std::pair<PartitionId, Offset>> one =
        Open(p, std::move(waiting.shard), *answers, lanes);
    it = unpositioned_.erase(it);
    if (!one.ok()) return one.status().WithContext(context);
    positions.push_back(*one);
  }
  if (positions.empty() && !always_assign) return Status::Ok();
  return consumer_.Assign(positions);
}

Status Assignment::Prepare(PartitionId p, Shards* now) {
  if (restorer_ != nullptr) {
    // A shard behind the changelog is restored first; it opens when that is
    // done (Advance).
    PS_ASSIGN_OR_RETURN(bool restoring, restorer_->Begin(p));
    if (restoring) return Status::Ok();
  }
  if (opener_ != nullptr) {
    BeginOpen(p);
  } else {
    (*now)[p] = nullptr;
  }
  return Status::Ok();
}

void Assignment::BeginOpen(PartitionId p, pipeline::BackgroundOpener::Prologue first) {
  spdlog::info("{}the shard of {}-{} (the consumer goes on polling meanwhile)",
               first ? "making the restore durable and opening " : "opening ",
               consumer_.topic(), p.value());
  opener_->Begin(p, std::move(first));
}

void Assignment::OnAssigned(const std::vector<PartitionId>& partitions, pipeline::Lanes& lanes) {
  metrics_.rebalances.WithLabels({"assign"}).Increment();
  Shards now;
  for (PartitionId p : partitions) {
    if (unowned_ != nullptr) unowned_->Owned(p);
    if (opener_ != nullptr && opener_->Holds(p)) {
      // Revoked while its shard was opening and given back before that open
      // ended: the shard is still locked by it.
      waiting_.insert(p);
      continue;
    }
    const Status s = Prepare(p, &now);
    if (!s.ok()) fatal_ = s.WithContext("partition " + std::to_string(p.value()));
  }
  // Only lanes without a shard to open are taken up here: opening a shard
  // reads all of its entries, which the rebalance callback must not wait
  // for. Even with none, the incremental assign is what completes the
  // cooperative rebalance.
  const Status taken = TakeUp(std::move(now), lanes, /*always_assign=*/true);
  if (!taken.ok()) fatal_ = taken;
  // librdkafka calls this at the end of every cooperative rebalance, even
  // with nothing new: joined, and ready once every assigned shard is open.
  UpdateReadiness();
}

Status Assignment::ResumeWaiting(Shards* now) {
  std::vector<PartitionId> free;
  for (PartitionId p : waiting_) {
    if (!opener_->Holds(p)) free.push_back(p);
  }
  for (PartitionId p : free) {
    waiting_.erase(p);
    PS_RETURN_IF_ERROR(Prepare(p, now).WithContext("partition " + std::to_string(p.value())));
  }
  return Status::Ok();
}

Status Assignment::Advance(pipeline::Lanes& lanes) {
  if (!pending()) return Status::Ok();
  Shards ready;
  if (restoring()) {
    PS_ASSIGN_OR_RETURN(std::vector<ChangelogRestorer::Restored> restored,
                        restorer_->Advance(std::chrono::milliseconds(50)));
    for (ChangelogRestorer::Restored& r : restored) {
      if (opener_ != nullptr) {
        BeginOpen(r.partition, std::move(r.finish));
      } else {
        if (r.finish) PS_RETURN_IF_ERROR(r.finish());
        ready[r.partition] = nullptr;
      }
    }
  }
  if (opener_ != nullptr) {
    PS_RETURN_IF_ERROR(ResumeWaiting(&ready));
    for (pipeline::BackgroundOpener::Finished& f : opener_->TakeFinished()) {
      if (!f.shard.ok()) {
        return f.shard.status().WithContext("partition " + std::to_string(f.partition.value()));
      }
      ready[f.partition] = std::move(*f.shard);
    }
  }
  if (!ready.empty() || !unpositioned_.empty()) {
    PS_RETURN_IF_ERROR(TakeUp(std::move(ready), lanes, /*always_assign=*/false));
  }
  UpdateReadiness();
  return Status::Ok();
}

bool Assignment::pending() const {
  return restoring() || (opener_ != nullptr && opener_->busy()) || !waiting_.empty() ||
         !unpositioned_.empty();
}

bool Assignment::pending(PartitionId p) const {
  return (restorer_ != nullptr && restorer_->restoring(p)) ||
         (opener_ != nullptr && opener_->opening(p)) || waiting_.count(p) > 0 ||
         unpositioned_.count(p) > 0;
}

void Assignment::UpdateReadiness() { metrics_.SetReady(fatal_.ok() && !pending()); }

std::vector<PartitionId> Assignment::StopTakingUp(const std::vector<PartitionId>& partitions) {
  std::vector<PartitionId> assigned;
  for (PartitionId p : partitions) {
    if (unowned_ != nullptr) unowned_->NotOwned(p);
    if (restorer_ != nullptr && restorer_->restoring(p)) {
      restorer_->Cancel(p);
    } else if (opener_ != nullptr && opener_->opening(p)) {
      // Closed on its worker when the open ends, which the stop hastens.
      opener_->Cancel(p);
      spdlog::info("opening the shard of {}-{} stopped: the partition was taken away",
                   consumer_.topic(), p.value());
    } else if (unpositioned_.erase(p) > 0) {
      // Its shard closes here; it was never handed to the consumer.
      spdlog::info("{}-{} was taken away while waiting for where it starts", consumer_.topic(),
                   p.value());
    } else if (waiting_.erase(p) == 0) {
      assigned.push_back(p);
    }
  }
  UpdateReadiness();
  return assigned;
}

void Assignment::OnRevoked(const std::vector<PartitionId>& all, pipeline::Lanes& lanes) {
  metrics_.rebalances.WithLabels({"revoke"}).Increment();
  const std::vector<PartitionId> partitions = StopTakingUp(all);
  const auto deadline = clock_.SteadyNow() + run_.shutdown_timeout;
  for (PartitionId p : partitions) {
    if (!lanes.IsOpen(p)) continue;
    lanes.Revoke(p, deadline);
    spdlog::info("revoked {}-{}", consumer_.topic(), p.value());
  }
  // Even with none left (every revoked partition was still restoring or
  // opening, so never assigned): the unassign is what completes the cooperative
  // rebalance. Without it the member never rejoins, and closing it waits
  // forever.
  const Status s = consumer_.Unassign(partitions);
  if (!s.ok()) spdlog::warn("{}", s.ToString());
}

void Assignment::OnLost(const std::vector<PartitionId>& all, pipeline::Lanes& lanes) {
  // Another member may own these already: nothing is checkpointed or
  // committed, and what was decided since the last checkpoint is dropped.
  metrics_.rebalances.WithLabels({"lost"}).Increment();
  const std::vector<PartitionId> partitions = StopTakingUp(all);
  for (PartitionId p : partitions) {
    spdlog::warn("lost {}-{}: dropping its work since the last checkpoint", consumer_.topic(),
                 p.value());
    lanes.Drop(p);
  }
  (void)consumer_.Unassign(partitions);  // even none: it completes the rebalance
}

}  // namespace pagesieve::run
