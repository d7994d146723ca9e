#include "run/partition_pipeline.h"

#include "run/output_messages.h"

namespace pagesieve::run {

PartitionPipeline::PartitionPipeline(std::string topic, PartitionId partition,
                                     std::unique_ptr<store::Shard> shard,
                                     std::optional<Offset> resume_from,
                                     const PipelineOptions& options, const engine::Sieve& sieve,
                                     const Clock& clock)
    : topic_(std::move(topic)),
      partition_(partition),
      shard_(std::move(shard)),
      options_(options),
      sieve_(sieve),
      clock_(clock),
      checkpointed_(shard_ ? shard_->checkpointed_offset() : std::nullopt),
      last_checkpoint_(clock.SteadyNow()) {
  // Without a known start, the first record consumed sets it (Add).
  next_expected_ = resume_from.value_or(Offset(-1));
  next_offset_ = next_expected_;
}

bool PartitionPipeline::Add(ConsumedRecord record) {
  if (next_expected_.value() < 0) {
    next_expected_ = record.offset;
    next_offset_ = record.offset;
  }
  // A record already decided (the broker may deliver a little before the
  // requested position after a seek): its verdict stands.
  if (record.offset < next_expected_) return false;
  // Later offsets than expected are gaps (compaction, retention, aborted
  // transactions): nothing to decide there.
  next_expected_ = record.offset.Next();
  if (open_.empty()) open_since_ = clock_.SteadyNow();
  pending_bytes_ += record.value.size();
  open_.push_back(std::move(record));
  return true;
}

std::unique_ptr<engine::PrepareBatch> PartitionPipeline::TakeBatch(bool flush, uint64_t* seq) {
  if (open_.empty()) return nullptr;
  const bool full = open_.size() >= options_.batch_records;
  const bool old = clock_.SteadyNow() - open_since_ >= options_.batch_linger;
  if (!full && !old && !flush) return nullptr;

  *seq = next_seq_++;
  Batch& batch = in_flight_[*seq];
  // At most batch_records: the rest waits for the next call, already old.
  const size_t n = std::min(open_.size(), options_.batch_records);
  batch.records.assign(std::make_move_iterator(open_.begin()),
                       std::make_move_iterator(open_.begin() + n));
  open_.erase(open_.begin(), open_.begin() + n);
  auto prepare = std::make_unique<engine::PrepareBatch>();
  prepare->storage.reserve(batch.records.size());
  for (const ConsumedRecord& r : batch.records) {
    prepare->storage.push_back(topic_ + "-" + std::to_string(r.partition.value()) + "-" +
                               std::to_string(r.offset.value()));
  }
  for (size_t i = 0; i < batch.records.size(); ++i) {
    const ConsumedRecord& r = batch.records[i];
    engine::InputRecord in;
    in.value = r.value;
    if (r.key) in.key = *r.key;
    in.timestamp = r.timestamp;
    in.partition = r.partition;
    in.offset = r.offset;
    in.default_event_id = prepare->storage[i];
    in.source = engine::SourcePosition{topic_, r.partition, r.offset};
    prepare->records.push_back(in);
  }
  return prepare;
}

void PartitionPipeline::Prepared(uint64_t seq, std::unique_ptr<engine::PrepareBatch> batch) {
  auto it = in_flight_.find(seq);
  if (it != in_flight_.end()) it->second.prepared = std::move(batch);
}

Status PartitionPipeline::DecideBatch(Batch& batch, engine::VerdictCounts* counts) {
  const Clock::SteadyTime now = clock_.SteadyNow();  // once per batch: the records go together
  for (size_t i = 0; i < batch.records.size(); ++i) {
    const ConsumedRecord& input = batch.records[i];
    StatusOr<engine::PreparedRecord>& prepared = batch.prepared->results[i];
    OutputMessage message;
    if (!prepared.ok()) {
      counts->AddDeadLetter();
      message = DeadLetterMessage(input, prepared.status(), options_.topics);
    } else if (!options_.repartition_topic.empty()) {
      counts->AddRekeyed();
      message = RepartitionMessage(std::move(prepared).value(), input, options_.repartition_topic,
                                   options_.topics.include_body, options_.body_field,
                                   options_.body_base64_field);
    } else {
      std::optional<engine::ForwardedFields> forwarded = std::move(prepared->forwarded);
      StatusOr<engine::Verdict> verdict = sieve_.Decide(std::move(prepared).value(), *shard_);
      if (!verdict.ok()) {
        return verdict.status().WithContext(topic_ + "-" + std::to_string(partition_.value()));
      }
      counts->Add(*verdict);
      message = VerdictMessage(*verdict, input, options_.topics, options_.body_field,
                               options_.body_base64_field, forwarded);
    }
    unsent_.push_back(std::move(message));
    if (options_.processing_latency != nullptr) {
      options_.processing_latency->ObserveDuration(now - input.consumed_at);
    }
    pending_bytes_ -= input.value.size();
    next_offset_ = input.offset.Next();
  }
  return Status::Ok();
}

Status PartitionPipeline::Decide(OutputSink& sink, int64_t max_unacknowledged,
                                 engine::VerdictCounts* counts) {
  for (;;) {
    // Hand over what is decided first, in order.
    while (!unsent_.empty()) {
      Status s = sink.Send(unsent_.front(), counter_);
      if (s.code() == StatusCode::kResourceExhausted) return Status::Ok();
      PS_RETURN_IF_ERROR(s);
      unsent_.pop_front();
    }
    // MaybeCheckpoint() goes first; the overlay may not change while its
    // records are shipped.
    if (shipping_ || CheckpointDue()) return Status::Ok();
    auto it = in_flight_.find(next_to_decide_);
    if (it == in_flight_.end() || !it->second.prepared) return Status::Ok();
    if (sink.unacknowledged() >= max_unacknowledged) return Status::Ok();
    PS_RETURN_IF_ERROR(DecideBatch(it->second, counts));
    in_flight_.erase(it);
    ++next_to_decide_;
  }
}

bool PartitionPipeline::CheckpointDue() const {
  const bool progressed = !checkpointed_ || *checkpointed_ < next_offset_;
  return progressed && clock_.SteadyNow() - last_checkpoint_ >= options_.checkpoint_interval;
}

Status PartitionPipeline::CheckDeliveries() const {
  for (const DeliveryCounter* c : {counter_.get(), changelog_counter_.get()}) {
    if (c->failures > 0) {
      return Status::Unavailable("delivering output of " + topic_ + "-" +
                                 std::to_string(partition_.value()) + " failed: " + c->first_error);
    }
  }
  return Status::Ok();
}

StatusOr<std::optional<Offset>> PartitionPipeline::MaybeCheckpoint(OutputSink& sink, bool force) {
  PS_RETURN_IF_ERROR(CheckDeliveries());
  if (!shipping_) {
    if (!force && !CheckpointDue()) return std::optional<Offset>();
    if (next_offset_.value() < 0) return std::optional<Offset>();  // nothing consumed yet
    if (!unsent_.empty() || counter_->unacknowledged > 0) return std::optional<Offset>();
    if (checkpointed_ && *checkpointed_ == next_offset_) {
      last_checkpoint_ = clock_.SteadyNow();
      return std::optional<Offset>();
    }
    if (!options_.changelog_topic.empty()) PS_RETURN_IF_ERROR(BeginShipping());
  }
  Offset next = next_offset_;
  if (shipping_) {
    PS_ASSIGN_OR_RETURN(bool shipped, Ship(sink));
    if (!shipped) return std::optional<Offset>();
    next = *shipping_;
    // Every record of this checkpoint is in the changelog before the offset
    // after them is: the local checkpoint says how far the changelog covers it.
    shard_->SetChangelogNext(Offset(changelog_counter_->highest_offset + 1));
    shipping_.reset();
  }
  // The re-keying stage keeps no state: its checkpoint is the commit alone.
  if (shard_) PS_RETURN_IF_ERROR(shard_->Checkpoint(next));
  checkpointed_ = next;
  last_checkpoint_ = clock_.SteadyNow();
  return std::optional<Offset>(next);
}

Status PartitionPipeline::BeginShipping() {
  PS_RETURN_IF_ERROR(shard_->ForEachChange(
      next_offset_, [this](std::string_view key, std::optional<std::string_view> value) {
        OutputMessage m;
        m.topic = options_.changelog_topic;
        m.partition = partition_.value();
        m.key.emplace(key);
        if (value) {
          m.value.assign(*value);
        } else {
          m.tombstone = true;
        }
        changelog_unsent_.push_back(std::move(m));
      }));
  if (options_.changelog_records != nullptr) options_.changelog_records->Inc(changelog_unsent_.size());
  shipping_ = next_offset_;
  return Status::Ok();
}

StatusOr<bool> PartitionPipeline::Ship(OutputSink& sink) {
  while (!changelog_unsent_.empty()) {
    Status s = sink.Send(changelog_unsent_.front(), changelog_counter_);
    if (s.code() == StatusCode::kResourceExhausted) return false;
    PS_RETURN_IF_ERROR(s);
    changelog_unsent_.pop_front();
  }
  return changelog_counter_->unacknowledged == 0;
}

bool PartitionPipeline::Drained() const {
  return open_.empty() && in_flight_.empty() && unsent_.empty() && counter_->unacknowledged == 0 &&
         !shipping_;
}

}  // namespace pagesieve::run
