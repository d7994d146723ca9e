#include "pipeline/lane.h"

namespace pagesieve::pipeline {

Lane::Lane(std::string name, PartitionId partition, std::unique_ptr<store::Shard> shard,
           std::unique_ptr<store::TierStores> wrapper, const LaneOptions& options, Stage& stage,
           const Clock& clock)
    : name_(std::move(name)),
      partition_(partition),
      shard_(std::move(shard)),
      wrapper_(std::move(wrapper)),
      stores_(wrapper_ ? wrapper_.get() : shard_.get()),
      options_(options),
      stage_(stage),
      clock_(clock),
      batches_(options.batch_records, options.batch_linger, clock),
      checkpointed_(shard_ ? shard_->checkpointed_offset() : std::nullopt),
      last_checkpoint_(clock.SteadyNow()) {
  if (!options.changelog_topic.empty() && shard_) {
    changelog_.emplace(options.changelog_topic, partition, options.changelog_records);
  }
}

void Lane::StartAt(Offset offset) {
  start_ = offset;
  next_expected_ = offset;
  next_offset_ = offset;
}

bool Lane::Add(SourceRecord record) {
  if (next_expected_.value() < 0) StartAt(record.lane_offset);
  // A record already processed (a source may deliver a little before the
  // requested position after a seek): its output stands.
  if (record.lane_offset < next_expected_) return false;
  next_expected_ = record.lane_offset.Next();
  pending_bytes_ += record.value.size();
  batches_.Add(std::move(record));
  return true;
}

void Lane::SkipTo(Offset offset) {
  if (next_expected_.value() < 0 || offset <= next_expected_) return;
  next_expected_ = offset;
  skip_to_ = offset;
  if (batches_.empty()) {
    next_offset_ = offset;
    skip_to_.reset();
  }
}

Status Lane::ProcessBatch(BatchQueue::Batch& batch, engine::VerdictCounts& counts) {
  const Clock::SteadyTime now = clock_.SteadyNow();  // once per batch: the records go together
  engine::VerdictCounts replayed;  // not counted again: they were published before
  std::vector<OutputMessage> output;
  for (size_t i = 0; i < batch.records->size(); ++i) {
    const SourceRecord& input = (*batch.records)[i];
    StatusOr<engine::PreparedRecord>& prepared = batch.prepared->results[i];
    const bool replay = replay_until_ && input.lane_offset < *replay_until_;
    engine::VerdictCounts& counted = replay ? replayed : counts;
    if (!prepared.ok()) {
      OutputMessage dead = stage_.DeadLetter(input, prepared.status(), counted);
      if (!replay) unsent_.push_back(std::move(dead));
    } else {
      output.clear();
      PS_RETURN_IF_ERROR(stage_.Process(std::move(prepared).value(), input, stores_, counted, &output)
                             .WithContext(name_));
      if (!replay) {
        for (OutputMessage& m : output) unsent_.push_back(std::move(m));
      }
    }
    if (options_.processing_latency != nullptr) {
      metrics::ObserveDuration(*options_.processing_latency, now - input.received_at);
    }
    pending_bytes_ -= input.value.size();
    next_offset_ = input.lane_offset.Next();
    ++since_checkpoint_;
  }
  return Status::Ok();
}

Status Lane::AfterProcessing(bool at_end) {
  // Not while a checkpoint or commit is under way: it waits for everything
  // sent to be acknowledged, and its records must be the last before the
  // offset it commits.
  if ((changelog_ && changelog_->shipping()) || commit_requested_) return Status::Ok();
  std::vector<OutputMessage> output;
  const Stage::LaneRound round{at_end, batches_.empty()};
  PS_RETURN_IF_ERROR(stage_.AfterProcessing(partition_, round, &output).WithContext(name_));
  // What the stage sends now may rest on state it changed (a route lane's
  // lifted floor): the next checkpoint must hold it, records or not.
  if (!output.empty()) emitted_ = true;
  for (OutputMessage& m : output) unsent_.push_back(std::move(m));
  return Status::Ok();
}

void Lane::PrepareShard() {
  if (shard_) stage_.BeforeCheckpoint(partition_, *shard_);
}

Status Lane::Process(Sink& sink, int64_t max_unacknowledged, engine::VerdictCounts& counts) {
  for (;;) {
    // Hand over what is processed first, in order.
    PS_ASSIGN_OR_RETURN(bool all_sent, SendUnsent(sink));
    if (!all_sent) return Status::Ok();
    // MaybeCheckpoint() goes first; the shard may not change while a
    // checkpoint's records are shipped.
    if ((changelog_ && changelog_->shipping()) || commit_requested_) return Status::Ok();
    if (!options_.transactional && CheckpointDue()) return Status::Ok();
    BatchQueue::Batch* batch = batches_.Next();
    if (batch == nullptr) {
      if (skip_to_ && batches_.empty()) {
        next_offset_ = std::max(next_offset_, *skip_to_);
        skip_to_.reset();
      }
      // Nothing to decide: a slice of the next checkpoint's reading now.
      if (changelog_ && shard_) PS_RETURN_IF_ERROR(shard_->SweepAhead(kIdleSweepKeys));
      return Status::Ok();
    }
    if (sink.unacknowledged() >= max_unacknowledged) return Status::Ok();
    PS_RETURN_IF_ERROR(ProcessBatch(*batch, counts));
    batches_.PopNext();
  }
}

bool Lane::WaitsOnlyForPoolOrInput() const {
  return unsent_.empty() && !(changelog_ && changelog_->shipping()) && !commit_requested_ &&
         (options_.transactional || !CheckpointDue()) && !batches_.next_prepared();
}

bool Lane::AwaitsAcknowledgements() const {
  const bool checkpointing = commit_requested_ || (changelog_ && changelog_->shipping()) ||
                             (!options_.transactional && CheckpointDue());
  return checkpointing &&
         (counter_->unacknowledged > 0 || (changelog_ && changelog_->deliveries().unacknowledged > 0));
}

bool Lane::CheckpointDue() const {
  if (!progressed()) return false;
  const CheckpointPolicy& policy = options_.checkpoint;
  return (policy.interval && clock_.SteadyNow() - last_checkpoint_ >= *policy.interval) ||
         (policy.every_records && since_checkpoint_ >= *policy.every_records);
}

Status Lane::CheckDeliveries() const {
  const DeliveryCounter* shipped = changelog_ ? &changelog_->deliveries() : nullptr;
  for (const DeliveryCounter* c : {static_cast<const DeliveryCounter*>(counter_.get()), shipped}) {
    if (c != nullptr && c->failures > 0) {
      const std::string what = "delivering output of " + name_ + " failed: " + c->first_error;
      // In a transaction the failure aborts it, and the records are decided
      // again, unless deciding again would fail the same way; otherwise
      // nothing after the failed message may be committed.
      return options_.transactional && c->permanent_failures == 0 ? Status::Aborted(what)
                                                                   : Status::Unavailable(what);
    }
  }
  return Status::Ok();
}

void Lane::RequestCommit() {
  if (commit_requested_) return;
  commit_requested_ = true;
  std::vector<OutputMessage> output;
  stage_.BeforeCommit(partition_, &output);
  if (!output.empty()) emitted_ = true;
  for (OutputMessage& m : output) unsent_.push_back(std::move(m));
}

StatusOr<bool> Lane::SendUnsent(Sink& sink) {
  while (!unsent_.empty()) {
    Status s = sink.Send(unsent_.front(), counter_);
    if (s.code() == StatusCode::kResourceExhausted) return false;
    PS_RETURN_IF_ERROR(s);
    unsent_.pop_front();
  }
  return true;
}

StatusOr<bool> Lane::PrepareCommit(Sink& sink) {
  PS_RETURN_IF_ERROR(CheckDeliveries());
  if (!commit_requested_) return false;
  const bool shipping = changelog_ && changelog_->shipping();
  if (!shipping) {
    // What RequestCommit() added goes now, not at the next Process(): the
    // pipeline's SendNow() that follows is then what sends it, not the
    // producer's linger.
    PS_ASSIGN_OR_RETURN(bool all_sent, SendUnsent(sink));
    // Nothing waits for acknowledgements here: the commit flushes what is
    // in flight and aborts if any of it failed (Sink::CommitTransaction).
    // So the changelog records follow the output at once, and the input
    // offsets join the transaction while both are in flight: a commit
    // used to wait for three round trips in turn before its own two
    // (docs/daemon.md, "Exactly once").
    if (!all_sent) return false;
    if (!changelog_ || next_offset_.value() < 0 || !progressed()) return true;
    PrepareShard();
    PS_RETURN_IF_ERROR(changelog_->Begin(*shard_, next_offset_));
  }
  return changelog_->Ship(sink, *shard_, /*in_transaction=*/true);
}

std::optional<Offset> Lane::commit_offset() const {
  if (next_offset_.value() < 0) return std::nullopt;
  return next_offset_;
}

Status Lane::FinishCommit() {
  const bool shipped = changelog_ && changelog_->shipping();
  if (shipped && changelog_->deliveries().unacknowledged > 0) {
    // The sink's commit waits for every acknowledgement; the shard saves
    // where the changelog stands after them.
    return Status::Internal(name_ + ": a transaction committed before its changelog records " +
                            "were acknowledged");
  }
  commit_requested_ = false;
  if (next_offset_.value() < 0 || !progressed()) {
    last_checkpoint_ = clock_.SteadyNow();
    since_checkpoint_ = 0;
    return Status::Ok();
  }
  const Offset next =
      shipped ? changelog_->Finish(*shard_, /*transactional=*/true) : next_offset_;
  return Commit(next);
}

std::optional<Offset> Lane::rollback_offset() const {
  if (checkpointed_) return checkpointed_;
  return start_;
}

StatusOr<std::optional<Offset>> Lane::MaybeCheckpoint(Sink& sink, bool force) {
  if (options_.transactional) return std::optional<Offset>();  // the pipeline commits
  PS_RETURN_IF_ERROR(CheckDeliveries());
  const bool shipping = changelog_ && changelog_->shipping();
  if (!shipping) {
    if (!force && !CheckpointDue()) return std::optional<Offset>();
    if (next_offset_.value() < 0) return std::optional<Offset>();  // nothing read yet
    if (!unsent_.empty() || counter_->unacknowledged > 0) return std::optional<Offset>();
    if (checkpointed_ && *checkpointed_ == next_offset_ && !SeedDue() && !emitted_) {
      last_checkpoint_ = clock_.SteadyNow();
      since_checkpoint_ = 0;
      return std::optional<Offset>();
    }
    if (!changelog_) {
      PS_RETURN_IF_ERROR(Commit(next_offset_));
      return std::optional<Offset>(next_offset_);
    }
    PrepareShard();
    PS_RETURN_IF_ERROR(changelog_->Begin(*shard_, next_offset_));
  }
  PS_ASSIGN_OR_RETURN(bool shipped, changelog_->Ship(sink, *shard_));
  if (!shipped) return std::optional<Offset>();
  const Offset next = changelog_->Finish(*shard_);
  PS_RETURN_IF_ERROR(Commit(next));
  return std::optional<Offset>(next);
}

Status Lane::Commit(Offset next) {
  // A stage without state keeps nothing: its checkpoint is the commit alone.
  if (shard_) {
    PrepareShard();
    PS_RETURN_IF_ERROR(shard_->Checkpoint(next));
  }
  emitted_ = false;
  checkpointed_ = next;
  last_checkpoint_ = clock_.SteadyNow();
  since_checkpoint_ = 0;
  return Status::Ok();
}

bool Lane::Drained() const {
  return batches_.empty() && unsent_.empty() && counter_->unacknowledged == 0 &&
         !(changelog_ && changelog_->shipping());
}

}  // namespace pagesieve::pipeline
