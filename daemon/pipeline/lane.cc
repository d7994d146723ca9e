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

Status Lane::ProcessBatch(BatchQueue::Batch& batch, engine::VerdictCounts& counts) {
  const Clock::SteadyTime now = clock_.SteadyNow();  // once per batch: the records go together
  for (size_t i = 0; i < batch.records->size(); ++i) {
    const SourceRecord& input = (*batch.records)[i];
    StatusOr<engine::PreparedRecord>& prepared = batch.prepared->results[i];
    if (!prepared.ok()) {
      unsent_.push_back(stage_.DeadLetter(input, prepared.status(), counts));
    } else {
      StatusOr<OutputMessage> out =
          stage_.Process(std::move(prepared).value(), input, stores_, counts);
      if (!out.ok()) return out.status().WithContext(name_);
      unsent_.push_back(std::move(out).value());
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

Status Lane::Process(Sink& sink, int64_t max_unacknowledged, engine::VerdictCounts& counts) {
  for (;;) {
    // Hand over what is processed first, in order.
    while (!unsent_.empty()) {
      Status s = sink.Send(unsent_.front(), counter_);
      if (s.code() == StatusCode::kResourceExhausted) return Status::Ok();
      PS_RETURN_IF_ERROR(s);
      unsent_.pop_front();
    }
    // MaybeCheckpoint() goes first; the shard may not change while a
    // checkpoint's records are shipped.
    if ((changelog_ && changelog_->shipping()) || CheckpointDue()) return Status::Ok();
    BatchQueue::Batch* batch = batches_.Next();
    if (batch == nullptr) return Status::Ok();
    if (sink.unacknowledged() >= max_unacknowledged) return Status::Ok();
    PS_RETURN_IF_ERROR(ProcessBatch(*batch, counts));
    batches_.PopNext();
  }
}

bool Lane::CheckpointDue() const {
  const bool progressed = !checkpointed_ || *checkpointed_ < next_offset_;
  if (!progressed) return false;
  const CheckpointPolicy& policy = options_.checkpoint;
  return (policy.interval && clock_.SteadyNow() - last_checkpoint_ >= *policy.interval) ||
         (policy.every_records && since_checkpoint_ >= *policy.every_records);
}

Status Lane::CheckDeliveries() const {
  const DeliveryCounter* shipped = changelog_ ? &changelog_->deliveries() : nullptr;
  for (const DeliveryCounter* c : {static_cast<const DeliveryCounter*>(counter_.get()), shipped}) {
    if (c != nullptr && c->failures > 0) {
      return Status::Unavailable("delivering output of " + name_ + " failed: " + c->first_error);
    }
  }
  return Status::Ok();
}

StatusOr<std::optional<Offset>> Lane::MaybeCheckpoint(Sink& sink, bool force) {
  PS_RETURN_IF_ERROR(CheckDeliveries());
  const bool shipping = changelog_ && changelog_->shipping();
  if (!shipping) {
    if (!force && !CheckpointDue()) return std::optional<Offset>();
    if (next_offset_.value() < 0) return std::optional<Offset>();  // nothing read yet
    if (!unsent_.empty() || counter_->unacknowledged > 0) return std::optional<Offset>();
    if (checkpointed_ && *checkpointed_ == next_offset_) {
      last_checkpoint_ = clock_.SteadyNow();
      since_checkpoint_ = 0;
      return std::optional<Offset>();
    }
    if (!changelog_) {
      PS_RETURN_IF_ERROR(Commit(next_offset_));
      return std::optional<Offset>(next_offset_);
    }
    PS_RETURN_IF_ERROR(changelog_->Begin(*shard_, next_offset_));
  }
  PS_ASSIGN_OR_RETURN(bool shipped, changelog_->Ship(sink));
  if (!shipped) return std::optional<Offset>();
  const Offset next = changelog_->Finish(*shard_);
  PS_RETURN_IF_ERROR(Commit(next));
  return std::optional<Offset>(next);
}

Status Lane::Commit(Offset next) {
  // A stage without state keeps nothing: its checkpoint is the commit alone.
  if (shard_) PS_RETURN_IF_ERROR(shard_->Checkpoint(next));
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
