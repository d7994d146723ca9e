#include "pipeline_fakes.h"

#include <algorithm>

namespace pagesieve::pipeline::testing {

Status RecordingSink::Send(const OutputMessage& m,
                           const std::shared_ptr<DeliveryCounter>& counter) {
  if (refuse_) return Status::ResourceExhausted("full");
  sent.push_back(m);
  in_transaction_ = transactional_;
  ++counter->unacknowledged;
  waiting_.push_back(counter);
  return Status::Ok();
}

Status RecordingSink::CommitTransaction(
    const std::vector<std::pair<PartitionId, Offset>>& offsets) {
  // As the producer's commit: every message in flight is acknowledged (or
  // fails) before the commit is asked for.
  if (on_commit) on_commit();
  if (fail_during_commit_ && !waiting_.empty()) {
    FailNext(fail_during_commit_->first, fail_during_commit_->second);
    fail_during_commit_.reset();
    AckAll();
    in_transaction_ = false;
    ++aborts;
    return Status::Aborted("1 message(s) failed delivery");
  }
  AckAll();
  if (member_gone_) {
    in_transaction_ = false;
    ++aborts;
    return Status::FailedPrecondition(
        "committing input offsets in the transaction: Broker: Unknown member");
  }
  if (refuse_commit_) {
    refuse_commit_ = false;
    in_transaction_ = false;
    ++aborts;
    return Status::Aborted("the coordinator refused the offsets");
  }
  commits.emplace_back(offsets.begin(), offsets.end());
  in_transaction_ = false;
  return Status::Ok();
}

Status RecordingSink::AbortTransaction() {
  if (in_transaction_) ++aborts;
  in_transaction_ = false;
  return Status::Ok();
}

void RecordingSink::Ack(const std::shared_ptr<DeliveryCounter>& counter) {
  --counter->unacknowledged;
  counter->highest_offset = std::max(counter->highest_offset, next_log_offset_++);
}

void RecordingSink::AckAll() {
  for (auto& c : waiting_) Ack(c);
  waiting_.clear();
}

void RecordingSink::AckNewestFirst() {
  while (!waiting_.empty()) {
    Ack(waiting_.back());
    waiting_.pop_back();
  }
}

void RecordingSink::Poll(Duration) {
  ++polls;
  if (auto_ack_) AckAll();
}

void RecordingSink::AckNewest() {
  if (waiting_.empty()) return;
  Ack(waiting_.back());
  waiting_.pop_back();
}

void RecordingSink::FailNext(const std::string& error, bool permanent) {
  auto c = waiting_.front();
  waiting_.pop_front();
  --c->unacknowledged;
  if (c->failures++ == 0) c->first_error = error;
  c->permanent_failures += permanent;
}

void ScriptedSource::Assign(PartitionId p, std::optional<Offset> start) {
  events_.push_back({Event::kAssign, p, start});
}

void ScriptedSource::Push(PartitionId p, Offset offset, std::string value, std::string key) {
  SourceRecord r;
  r.stream = "pages";
  r.partition = p;
  r.offset = offset;
  r.lane_offset = offset;
  r.key = std::move(key);
  r.value = std::move(value);
  r.default_event_id = "pages-" + std::to_string(p.value()) + "-" + std::to_string(offset.value());
  r.position_in_verdict = true;
  pushed_[p].push_back(r);
  queued_[p].push_back(std::move(r));
}

Status ScriptedSource::Rewind(PartitionId p, Offset offset) {
  rewound[p] = offset;
  if (replay_on_rewind_) {
    std::deque<SourceRecord>& queue = queued_[p];
    queue.clear();
    for (const SourceRecord& r : pushed_[p]) {
      if (r.offset >= offset) queue.push_back(r);
    }
  }
  return Status::Ok();
}

void GatedStage::Open() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
  }
  opened_.notify_all();
}

void GatedStage::Pass() const {
  std::unique_lock<std::mutex> lock(mu_);
  opened_.wait(lock, [this] { return open_; });
}

engine::PreparePool::PrepareFnFactory GatedStage::PrepareFactory() const {
  return [this, factory = inner_.PrepareFactory()] {
    return [this, prepare = factory()](const engine::InputRecord& record) {
      Pass();
      return prepare(record);
    };
  };
}

Status ScriptedSource::Poll(Duration wait, Lanes& lanes) {
  waits.emplace_back(wait, pending_bytes ? pending_bytes() : 0);
  while (!events_.empty()) {
    const Event e = events_.front();
    events_.pop_front();
    switch (e.kind) {
      case Event::kAssign: {
        PS_ASSIGN_OR_RETURN(std::optional<Offset> checkpointed, lanes.Open(e.partition));
        lanes.StartAt(e.partition, e.start.value_or(checkpointed.value_or(Offset(0))));
        break;
      }
      case Event::kRevoke:
        revoke_drained[e.partition] = lanes.Revoke(e.partition, Clock::SteadyTime::max());
        break;
      case Event::kLose:
        lanes.Drop(e.partition);
        break;
    }
  }
  bool handed = false;
  for (auto& [p, records] : queued_) {
    if (!lanes.IsOpen(p) || paused.count(p)) continue;
    while (!records.empty()) {
      lanes.Add(p, std::move(records.front()));
      records.pop_front();
      handed = true;
    }
  }
  if (wakeable_ && !handed) {
    std::unique_lock<std::mutex> lock(wake_mu_);
    woken_.wait_for(lock, wait, [this] { return wake_pending_; });
    wake_pending_ = false;
  }
  return Status::Ok();
}

void ScriptedSource::Wake() {
  ++wakes;
  {
    std::lock_guard<std::mutex> lock(wake_mu_);
    wake_pending_ = true;
  }
  woken_.notify_one();
}

void ScriptedSource::Commit(const std::vector<std::pair<PartitionId, Offset>>& offsets, bool sync) {
  for (const auto& [p, offset] : offsets) {
    committed[p] = offset;
    if (sync) ++sync_commits[p];
  }
}

void ScriptedSource::Pause(const std::vector<PartitionId>& partitions) {
  paused.insert(partitions.begin(), partitions.end());
}

void ScriptedSource::Resume(const std::vector<PartitionId>& partitions) {
  for (PartitionId p : partitions) paused.erase(p);
}

std::optional<Offset> ScriptedSource::EndOf(PartitionId p) const {
  auto it = ends_.find(p);
  if (it == ends_.end()) return std::nullopt;
  return it->second;
}

bool ScriptedSource::Exhausted() const {
  return !ends_.empty() && std::all_of(ends_.begin(), ends_.end(), [this](const auto& e) {
    return finished.count(e.first) > 0;
  });
}

}  // namespace pagesieve::pipeline::testing
