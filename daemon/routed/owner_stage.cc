#include "routed/owner_stage.h"

#include "routed/routed_output.h"
#include "routing/message_codec.h"

namespace pagesieve::routed {

engine::PreparePool::PrepareFnFactory OwnerStage::PrepareFactory() const {
  // Decoding a message is cheap next to the owner's work, and the owner
  // takes it on the lane's thread anyway: the pool passes it on.
  return []() -> engine::PreparePool::PrepareFn {
    return [](const engine::InputRecord&) -> StatusOr<engine::PreparedRecord> {
      return engine::PreparedRecord();
    };
  };
}

Status OwnerStage::LaneOpened(PartitionId partition, store::Shard* shard) {
  PS_ASSIGN_OR_RETURN(std::unique_ptr<PartitionOwner> owner,
                      OpenPartitionOwner(context_, partition, *shard));
  lanes_.insert_or_assign(partition, Lane{std::move(owner), std::nullopt});
  return Status::Ok();
}

Status OwnerStage::Process(engine::PreparedRecord, const pipeline::SourceRecord& input,
                           store::TierStores*, engine::VerdictCounts& counts,
                           std::vector<pipeline::OutputMessage>* out) {
  StatusOr<routing::Message> message = routing::DecodeMessage(input.value.view());
  if (!message.ok()) {
    // Only pagesieve's stages write here: anything else, skipped, could be
    // the answer a record waits for. Stop, and say where it is.
    return Status::Corruption(input.stream + "-" + std::to_string(input.partition.value()) + "@" +
                            std::to_string(input.offset.value()) + " is not a message of " +
                            "pagesieve's routed stages (" + message.status().message() + ")");
  }
  Lane& lane = lanes_.at(input.partition);
  routing::Outbox outbox;
  PS_RETURN_IF_ERROR(lane.owner->Take(*std::move(message), &outbox));
  if (!outbox.progress.empty()) lane.unsent_progress = outbox.progress.back();
  AppendOutbox(outbox, kafka_.routing, format_, sent_, counts, out);
  return Status::Ok();
}

pipeline::OutputMessage OwnerStage::DeadLetter(const pipeline::SourceRecord& input,
                                               const Status& error,
                                               engine::VerdictCounts& counts) {
  counts.AddDeadLetter();  // never: the pool's pass-through refuses nothing
  return format_.DeadLetter(input, error);
}

const std::string* OwnerStage::ProgressTopic() const {
  switch (context_.kind) {
    case OwnerKind::kUrl:
      return &kafka_.routing.content_topic;
    case OwnerKind::kContent:
      return &kafka_.routing.near_topic;
    case OwnerKind::kNear:
      break;
  }
  return nullptr;
}

bool OwnerStage::HoldsOutput(PartitionId partition) const {
  const auto it = lanes_.find(partition);
  return it != lanes_.end() && it->second.unsent_progress && ProgressTopic() != nullptr;
}

// The owner's latest promise, once per transaction: the next stage reads it
// only when the transaction commits, so the ones before it said no more.
void OwnerStage::BeforeCommit(PartitionId partition, std::vector<pipeline::OutputMessage>* out) {
  if (!HoldsOutput(partition)) return;
  Lane& lane = lanes_.at(partition);
  Broadcast(*ProgressTopic(), context_.next_owners.partitions(), *lane.unsent_progress, sent_, out);
  lane.unsent_progress.reset();
}

void OwnerStage::BeforeCheckpoint(PartitionId partition, store::Shard& shard) {
  if (auto it = lanes_.find(partition); it != lanes_.end()) {
    shard.HoldExpiry(it->second.owner->ExpiryHold());
  }
}

bool OwnerStage::Finished(PartitionId partition) const {
  auto it = lanes_.find(partition);
  return it != lanes_.end() && it->second.owner->Finished();
}

}  // namespace pagesieve::routed
