#include "pipeline/pipeline.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>

#include "common/duration.h"

namespace pagesieve::pipeline {

Pipeline::Pipeline(Source& source, Sink& sink, Stage& stage, ShardOpener open_shard,
                   PipelineOptions options, const Clock& clock)
    : source_(source),
      sink_(sink),
      stage_(stage),
      open_shard_(std::move(open_shard)),
      options_(std::move(options)),
      clock_(clock),
      backpressure_(options_.max_pending_bytes, options_.max_unacknowledged),
      last_commit_(clock.SteadyNow()),
      pool_(stage.PrepareFactory(), clock, options_.threads) {}

Pipeline::~Pipeline() { CloseAll(); }

Status Pipeline::Step() {
  PS_RETURN_IF_ERROR(source_.Poll(NextWait(), *this));
  PS_RETURN_IF_ERROR(fatal_);
  if (rollback_) PS_RETURN_IF_ERROR(RollBack(*rollback_));
  for (auto& [p, open] : lanes_) SubmitBatches(open, AtEnd(*open.lane));
  if (!DispatchCompletions() && !source_.Wakeable()) {
    // Nothing came back from the pool yet: wait for it rather than spin (a
    // source that could wait for input did so in Poll already; one that
    // wakes for the pool waited for both there).
    bool at_pool = false;
    for (const auto& [p, open] : lanes_) at_pool |= open.lane->WaitingForPool();
    if (at_pool) {
      completions_.WaitFor(options_.busy_wait);
      DispatchCompletions();
    }
  }
  PS_RETURN_IF_ERROR(ProcessAll());
  // Output lingers in the sink to be sent in batches while more is coming;
  // with nothing more to decide it goes now (and a checkpoint that waits
  // for it has it sent in CheckpointAndCommit).
  bool more = false;
  for (const auto& [p, open] : lanes_) more |= open.lane->pending_bytes() > 0;
  if (!more) sink_.SendNow();
  sink_.Poll(Duration(0));  // acknowledgements
  PS_RETURN_IF_ERROR(CheckpointAndCommit());
  ApplyBackpressure();
  return FinishLanesAtTheirEnd();
}

Duration Pipeline::NextWait() const {
  bool busy = false;
  bool only_pool_or_input = source_.Wakeable() && !committing_ && !backpressure_.any_paused();
  std::optional<Clock::SteadyTime> linger_ends;
  for (const auto& [p, open] : lanes_) {
    const Lane& lane = *open.lane;
    if (lane.pending_bytes() == 0) continue;
    busy = true;
    only_pool_or_input = only_pool_or_input && lane.WaitsOnlyForPoolOrInput();
    if (const auto ends = lane.BatchLingerEnds(); ends && (!linger_ends || *ends < *linger_ends)) {
      linger_ends = ends;
    }
  }
  if (!busy) return options_.idle_wait;
  // Acknowledgements are heard of only between waits: a lane that needs
  // them (a checkpoint, a commit, a full sink) is polled for them often.
  if (!only_pool_or_input) return options_.busy_wait;
  // Otherwise whatever comes next ends the wait (input, or the pool waking
  // the source), but for an open batch's linger: a wake-up per event, not
  // one per millisecond while a batch is at the pool.
  Duration wait = options_.idle_wait;
  if (linger_ends) {
    wait = std::clamp(std::chrono::ceil<Duration>(*linger_ends - clock_.SteadyNow()), Duration(0),
                      wait);
  }
  return wait;
}

void Pipeline::SubmitBatches(OpenLane& open, bool flush) {
  uint64_t seq = 0;
  while (auto batch = open.lane->TakeBatch(flush, &seq)) {
    pool_.Submit(std::move(batch),
                 [this, id = open.id, seq](std::unique_ptr<engine::PrepareBatch> b) {
                   completions_.Push({id, seq, std::move(b)});
                   source_.Wake();
                 });
  }
}

bool Pipeline::DispatchCompletions() {
  std::vector<CompletionQueue::Completion> done = completions_.TakeAll();
  for (CompletionQueue::Completion& c : done) {
    if (options_.fingerprint_time != nullptr) {
      for (std::chrono::nanoseconds t : c.batch->prepare_times) {
        metrics::ObserveDuration(*options_.fingerprint_time, t);
      }
    }
    for (auto& [p, open] : lanes_) {
      if (open.id == c.lane_id) open.lane->Prepared(c.seq, std::move(c.batch));
    }
    // A completion for a lane that is gone (revoked, lost) is dropped: its
    // records are decided again by whoever owns the partition now.
  }
  return !done.empty();
}

Status Pipeline::ProcessAll() {
  for (auto& [p, open] : lanes_) {
    const Status s = open.lane->Process(sink_, options_.max_unacknowledged, counts_);
    if (s.code() == StatusCode::kAborted && transactional()) {
      // The open transaction failed: a refusal no retry mends stops the
      // stage, naming the lane whose output was refused; anything else
      // rolls back and decides again.
      for (const auto& [q, other] : lanes_) {
        const Status delivered = other.lane->CheckDeliveries();
        if (delivered.code() == StatusCode::kUnavailable) return delivered;
      }
      if (!rollback_) rollback_ = s.message();
      return Status::Ok();
    }
    PS_RETURN_IF_ERROR(s);
    const std::optional<Offset> end = source_.EndOf(p);
    PS_RETURN_IF_ERROR(open.lane->AfterProcessing(end && open.lane->next_offset() >= *end));
  }
  return Status::Ok();
}

Status Pipeline::CheckpointAndCommit() {
  if (transactional()) {
    PS_RETURN_IF_ERROR(AdvanceTransaction(false));
    if (rollback_) return RollBack(*rollback_);
    return Status::Ok();
  }
  std::vector<std::pair<PartitionId, Offset>> offsets;
  bool awaited = false;
  for (auto& [p, open] : lanes_) {
    PS_ASSIGN_OR_RETURN(std::optional<Offset> done, open.lane->MaybeCheckpoint(sink_, false));
    if (done) offsets.emplace_back(p, *done);
    awaited |= open.lane->AwaitsAcknowledgements();
  }
  if (awaited) sink_.SendNow();  // the changelog records a checkpoint waits for
  if (offsets.empty()) return Status::Ok();
  source_.Commit(offsets, /*sync=*/false);
  return Status::Ok();
}

void Pipeline::ApplyBackpressure() {
  size_t pending = 0;
  std::vector<PartitionId> open;
  for (const auto& [p, lane] : lanes_) {
    pending += lane.lane->pending_bytes();
    open.push_back(p);
  }
  backpressure_.Apply(pending, sink_.unacknowledged(), open, source_);
}

bool Pipeline::AtEnd(const Lane& lane) const {
  const std::optional<Offset> end = source_.EndOf(lane.partition());
  return end && lane.next_expected() >= *end;
}

Status Pipeline::FinishLanesAtTheirEnd() {
  std::vector<PartitionId> finished;
  bool commit = false;
  for (auto& [p, open] : lanes_) {
    Lane& lane = *open.lane;
    const std::optional<Offset> end = source_.EndOf(p);
    if (!end || lane.next_offset() < *end || !lane.Drained()) continue;
    if (transactional()) {
      // Its end is committed with everyone else's, and checkpointed after.
      if (lane.Checkpointed()) {
        finished.push_back(p);
      } else {
        commit = true;
      }
      continue;
    }
    PS_ASSIGN_OR_RETURN(std::optional<Offset> done, lane.MaybeCheckpoint(sink_, true));
    if (done) source_.Commit({{p, *done}}, /*sync=*/true);
    // Still shipping its changelog records: CheckpointAndCommit() goes on.
    if (lane.Drained() && lane.Checkpointed()) finished.push_back(p);
  }
  for (PartitionId p : finished) {
    Close(p);
    replay_until_.erase(p);
    source_.Finished(p);
  }
  if (commit) PS_RETURN_IF_ERROR(AdvanceTransaction(true));
  return Status::Ok();
}

Status Pipeline::AdvanceTransaction(bool force, bool* committed) {
  if (committed != nullptr) *committed = false;
  if (rollback_) return Status::Ok();
  const Clock::SteadyTime now = clock_.SteadyNow();
  if (!committing_) {
    bool progressed = false;
    for (const auto& [p, open] : lanes_) {
      progressed |= (open.lane->next_offset().value() >= 0 && open.lane->progressed()) ||
                    open.lane->HoldsOutput();
    }
    if (!progressed && !sink_.in_transaction()) {
      if (committed != nullptr) *committed = true;  // nothing to commit
      return Status::Ok();
    }
    const std::optional<Duration>& interval = options_.lane.checkpoint.interval;
    if (!force && !(interval && now - last_commit_ >= *interval)) return Status::Ok();
    committing_ = true;
    commit_started_ = now;
  }
  bool ready = true;
  for (auto& [p, open] : lanes_) {
    open.lane->RequestCommit();  // lanes opened since the commit began too
    StatusOr<bool> lane_ready = open.lane->PrepareCommit(sink_);
    if (lane_ready.status().code() == StatusCode::kAborted) {
      rollback_ = lane_ready.status().message();
      return Status::Ok();
    }
    PS_RETURN_IF_ERROR(lane_ready.status());
    ready &= *lane_ready;
  }
  if (!ready) {
    sink_.SendNow();  // what the commit waits for, changelog records included
    return Status::Ok();
  }
  std::vector<std::pair<PartitionId, Offset>> offsets;
  for (const auto& [p, open] : lanes_) {
    if (std::optional<Offset> next = open.lane->commit_offset()) offsets.emplace_back(p, *next);
  }
  const Status s = sink_.CommitTransaction(offsets);
  if (s.code() == StatusCode::kAborted || s.code() == StatusCode::kFailedPrecondition) {
    // A message that failed while the commit waited for it aborts the
    // transaction; one that would fail the same way when decided again
    // stops the stage instead (Lane::CheckDeliveries).
    for (const auto& [p, open] : lanes_) {
      const Status delivered = open.lane->CheckDeliveries();
      if (!delivered.ok() && delivered.code() != StatusCode::kAborted) return delivered;
    }
    rollback_ = s.message();
    member_gone_ = s.code() == StatusCode::kFailedPrecondition;
    return Status::Ok();
  }
  PS_RETURN_IF_ERROR(s);
  // Committed: a crash from here on leaves shards behind the group's
  // offsets, and the next start catches them up without publishing again
  // (the changelog, else Lane::ReplayUntil).
  int checkpointed = 0;
  for (auto& [p, open] : lanes_) {
    checkpointed += open.lane->next_offset().value() >= 0 && open.lane->progressed();
    PS_RETURN_IF_ERROR(open.lane->FinishCommit());
  }
  if (options_.checkpoints != nullptr) options_.checkpoints->Increment(checkpointed);
  committing_ = false;
  last_commit_ = clock_.SteadyNow();
  if (options_.commit_time != nullptr) {
    metrics::ObserveDuration(*options_.commit_time, last_commit_ - commit_started_);
  }
  if (options_.transactions_committed != nullptr) options_.transactions_committed->Increment();
  if (committed != nullptr) *committed = true;
  return Status::Ok();
}

bool Pipeline::CommitBefore(Clock::SteadyTime deadline) {
  for (;;) {
    if (!fatal_.ok() || rollback_) return false;
    bool committed = false;
    Status s = AdvanceTransaction(/*force=*/true, &committed);
    if (!s.ok()) {
      fatal_ = s;
      return false;
    }
    if (committed) return true;
    if (rollback_ || clock_.SteadyNow() >= deadline) return false;
    // Send what each lane processed before it stopped; nothing new is
    // processed while the commit is under way.
    for (auto& [p, open] : lanes_) {
      s = open.lane->Process(sink_, std::numeric_limits<int64_t>::max(), counts_);
      if (!s.ok()) {
        fatal_ = s;
        return false;
      }
    }
    sink_.Poll(std::chrono::milliseconds(5));
  }
}

Status Pipeline::RollBack(std::string why) {
  rollback_.reset();
  member_gone_ = false;  // a running stage rejoins, and commits again after
  spdlog::warn("transaction aborted: {}; deciding again from the last commit", why);
  if (options_.transactions_aborted != nullptr) options_.transactions_aborted->Increment();
  PS_RETURN_IF_ERROR(sink_.AbortTransaction());
  committing_ = false;
  last_commit_ = clock_.SteadyNow();
  std::vector<std::pair<PartitionId, std::optional<Offset>>> restart;
  for (const auto& [p, open] : lanes_) restart.emplace_back(p, open.lane->rollback_offset());
  for (const auto& [p, offset] : restart) {
    Close(p);  // the shard closes at its last checkpoint, and reopens as it
    PS_RETURN_IF_ERROR(Open(p).status());
    if (!offset) continue;
    StartAt(p, *offset);
    if (auto it = replay_until_.find(p); it != replay_until_.end()) {
      lanes_.at(p).lane->ReplayUntil(it->second);
    }
    PS_RETURN_IF_ERROR(source_.Rewind(p, *offset));
  }
  return Status::Ok();
}

Status Pipeline::DecideAgainBefore(Clock::SteadyTime deadline) {
  std::map<PartitionId, Offset> decided;
  for (const auto& [p, open] : lanes_) decided.emplace(p, open.lane->next_offset());
  PS_RETURN_IF_ERROR(RollBack(*rollback_));
  std::vector<PartitionId> all;
  for (const auto& [p, open] : lanes_) all.push_back(p);
  source_.Resume(all);
  auto behind = [&] {
    for (const auto& [p, offset] : decided) {
      auto it = lanes_.find(p);  // a lane revoked meanwhile is its next owner's
      if (it != lanes_.end() && it->second.lane->next_offset() < offset) return true;
    }
    return false;
  };
  // Step() rolls back again should the new transaction fail too.
  while (behind() && clock_.SteadyNow() < deadline) PS_RETURN_IF_ERROR(Step());
  all.clear();
  for (const auto& [p, open] : lanes_) all.push_back(p);
  source_.Pause(all);
  return Status::Ok();
}

std::vector<Pipeline::LaneInfo> Pipeline::lanes() const {
  std::vector<LaneInfo> out;
  for (const auto& [p, open] : lanes_) {
    const Lane& lane = *open.lane;
    out.push_back(
        {p, lane.next_offset(), lane.pending_bytes(), backpressure_.paused(p), lane.shard()});
  }
  return out;
}

StatusOr<std::optional<Offset>> Pipeline::Open(PartitionId p) {
  std::unique_ptr<store::Shard> shard;
  if (stage_.stateful()) {
    PS_ASSIGN_OR_RETURN(shard, open_shard_(p));
  }
  return OpenWith(p, std::move(shard));
}

StatusOr<std::optional<Offset>> Pipeline::OpenWith(PartitionId p,
                                                   std::unique_ptr<store::Shard> shard) {
  if (stage_.stateful() != (shard != nullptr)) {
    return Status::Internal(
        "lane " + options_.input_name + "-" + std::to_string(p.value()) +
        (shard ? " given a shard by a stage without state" : " opened without its shard"));
  }
  std::unique_ptr<store::TierStores> stores;
  if (shard && options_.lookup_timers) {
    stores = std::make_unique<TimedTierStores>(*shard, clock_, *options_.lookup_timers);
  }
  const std::optional<Offset> checkpointed = shard ? shard->checkpointed_offset() : std::nullopt;
  PS_RETURN_IF_ERROR(stage_.LaneOpened(p, shard.get()));
  auto lane =
      std::make_unique<Lane>(options_.input_name + "-" + std::to_string(p.value()), p,
                             std::move(shard), std::move(stores), options_.lane, stage_, clock_);
  backpressure_.Forget(p);
  lanes_[p] = OpenLane{next_lane_id_++, std::move(lane)};
  return checkpointed;
}

void Pipeline::StartAt(PartitionId p, Offset offset) {
  auto it = lanes_.find(p);
  if (it != lanes_.end()) it->second.lane->StartAt(offset);
}

void Pipeline::SkipTo(PartitionId p, Offset offset) {
  auto it = lanes_.find(p);
  if (it != lanes_.end()) it->second.lane->SkipTo(offset);
}

void Pipeline::ReplayUntil(PartitionId p, Offset offset) {
  auto it = lanes_.find(p);
  if (it == lanes_.end()) return;
  it->second.lane->ReplayUntil(offset);
  replay_until_[p] = offset;
}

bool Pipeline::Add(PartitionId p, SourceRecord record) {
  auto it = lanes_.find(p);
  return it != lanes_.end() && it->second.lane->Add(std::move(record));
}

void Pipeline::Wait(Duration wait) {
  completions_.WaitFor(wait);
  sink_.Poll(Duration(0));
}

bool Pipeline::Drain(OpenLane& open, Clock::SteadyTime deadline) {
  Lane& lane = *open.lane;
  for (;;) {
    SubmitBatches(open, /*flush=*/true);
    DispatchCompletions();
    Status s = lane.Process(sink_, std::numeric_limits<int64_t>::max(), counts_);
    if (!s.ok()) {
      fatal_ = s;
      return false;
    }
    // Once everything is processed and acknowledged, a final checkpoint;
    // with a changelog it takes a few rounds (ship, acknowledgements, commit).
    const bool processed_all = lane.Drained();
    StatusOr<std::optional<Offset>> done = lane.MaybeCheckpoint(sink_, processed_all);
    if (!done.ok()) {
      fatal_ = done.status();
      return false;
    }
    if (*done) source_.Commit({{lane.partition(), **done}}, /*sync=*/processed_all);
    if (lane.Drained() && lane.Checkpointed()) return true;
    if (clock_.SteadyNow() >= deadline) return false;
    if (lane.WaitingForPool()) {
      Wait(std::chrono::milliseconds(5));
    } else {
      sink_.Poll(std::chrono::milliseconds(5));
    }
  }
}

bool Pipeline::Revoke(PartitionId p, Clock::SteadyTime deadline) {
  auto it = lanes_.find(p);
  if (it == lanes_.end()) return true;
  replay_until_.erase(p);
  if (transactional()) {
    // What the lane processed commits with every other lane's; what it read
    // beyond is read again by the next owner.
    const bool committed = !abandoned_ && CommitBefore(deadline);
    if (!committed && !abandoned_) {
      spdlog::warn(
          "{} was taken away before its transaction committed; its next owner decides "
          "its records again from the last commit",
          it->second.lane->name());
      if (!rollback_) rollback_ = "a partition was revoked before its transaction committed";
    }
    Close(p);
    return committed;
  }
  Lane& lane = *it->second.lane;
  const bool drained = !abandoned_ && Drain(it->second, deadline);
  if (!drained && !abandoned_) {
    spdlog::warn(
        "{} was taken away before its records were finished; its next owner decides "
        "them again from offset {}",
        lane.name(), lane.checkpointed_offset().value_or(Offset(-1)).value());
  }
  Close(p);
  return drained;
}

void Pipeline::Drop(PartitionId p) {
  Close(p);
  replay_until_.erase(p);
  // The open transaction holds the lost partition's output, which may not be
  // committed now: abort it, and every other lane goes back to its last
  // checkpoint (on the next Step: this is called inside a rebalance).
  if (transactional() && sink_.in_transaction() && !abandoned_) {
    rollback_ = "a partition was lost with output in the open transaction";
  }
}

void Pipeline::CloseAll() {
  for (const auto& [p, open] : lanes_) stage_.LaneClosed(p);
  lanes_.clear();
}

void Pipeline::Close(PartitionId p) {
  if (lanes_.count(p) > 0) stage_.LaneClosed(p);
  lanes_.erase(p);  // closes the shard
  // The client keeps a partition's pause across unassign and assign: a lane
  // paused by backpressure would come back paused for good (a rebalance
  // that returns the partition, a transaction rolled back).
  if (backpressure_.paused(p)) source_.Resume({p});
  backpressure_.Forget(p);
}

Status Pipeline::Shutdown(Duration timeout) {
  const auto deadline = clock_.SteadyNow() + timeout;
  std::vector<PartitionId> all;
  for (const auto& [p, open] : lanes_) all.push_back(p);
  source_.Pause(all);  // no more reading; what was read gets its output
  Status result;
  if (transactional() && !abandoned_ && !lanes_.empty()) {
    // What was processed commits; what was read beyond is read again on the
    // next start.
    bool committed = CommitBefore(deadline);
    if (!committed && member_gone_ && fatal_.ok()) {
      // The group gave this member's partitions away (its session ended
      // while the coordinator was away): they are their next owners' from
      // the last commit, as if revoked, and retrying cannot commit. Nothing
      // of the aborted transaction is visible; nothing is lost.
      spdlog::warn(
          "shutdown: the last transaction was refused ({}); the group no longer counts this "
          "instance, so its partitions' records since the last commit are decided by their "
          "next owners",
          *rollback_);
      (void)sink_.AbortTransaction();
      abandoned_ = true;
      CloseAll();
      return Status::Ok();
    }
    // A transaction that failed, not for want of time (its records timed
    // out while the broker was away), is aborted and its records decided
    // again, as a running stage does: a stop right after an outage still
    // ends with everything it decided committed.
    while (!committed && rollback_ && fatal_.ok() && clock_.SteadyNow() < deadline) {
      if (Status s = DecideAgainBefore(deadline); !s.ok()) {
        fatal_ = s;
        break;
      }
      committed = CommitBefore(deadline);
    }
    if (!committed) {
      if (!fatal_.ok()) {
        result = fatal_;
      } else if (rollback_) {
        result = Status::Aborted("shutdown: the last transaction failed (" + *rollback_ +
                                 ") with no time left to decide its records again within " +
                                 FormatDuration(timeout) +
                                 "; they are decided again on the next start");
      } else {
        result = Status::DeadlineExceeded(
            "shutdown: the last transaction could not be committed within " +
            FormatDuration(timeout) + "; its records are decided again on the next start");
      }
      if (rollback_) (void)sink_.AbortTransaction();
    }
    abandoned_ = true;
    CloseAll();
    return result;
  }
  for (auto& [p, open] : lanes_) {
    if (abandoned_) break;
    if (!Drain(open, deadline)) {
      result = Status::DeadlineExceeded(
          "shutdown: " + open.lane->name() + " could not be finished within " +
          FormatDuration(timeout) +
          "; its records after the last checkpoint will be processed again on the next start");
      break;
    }
  }
  if (!fatal_.ok()) result = fatal_;
  abandoned_ = true;  // everything that could be finished is
  CloseAll();
  return result;
}

}  // namespace pagesieve::pipeline
