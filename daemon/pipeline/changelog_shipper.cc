#include "pipeline/changelog_shipper.h"

namespace pagesieve::pipeline {

Status ChangelogShipper::Begin(store::Shard& shard, Offset next_offset) {
  PS_RETURN_IF_ERROR(shard.ForEachChange(
      next_offset, [this](std::string_view key, std::optional<std::string_view> value) {
        unsent_.push_back(OutputMessage{topic_,
                                        std::string(key),
                                        value ? std::string(*value) : std::string(),
                                        {},
                                        partition_.value(),
                                        !value.has_value()});
      }));
  if (shipped_ != nullptr) shipped_->Increment(static_cast<double>(unsent_.size()));
  shipping_ = next_offset;
  return Status::Ok();
}

StatusOr<bool> ChangelogShipper::Ship(Sink& sink) {
  while (!unsent_.empty()) {
    Status s = sink.Send(unsent_.front(), counter_);
    if (s.code() == StatusCode::kResourceExhausted) return false;
    PS_RETURN_IF_ERROR(s);
    unsent_.pop_front();
  }
  return counter_->unacknowledged == 0;
}

Offset ChangelogShipper::Finish(store::Shard& shard, bool transactional) {
  // Every record of this checkpoint is in the changelog before the offset
  // after them is: the local checkpoint says how far the changelog covers it.
  // In a transaction the commit marker follows the last record (only this
  // partition's owner writes its changelog partition): the next offset is
  // after the marker, or every restart would read the marker alone.
  shard.SetChangelogNext(Offset(counter_->highest_offset + (transactional ? 2 : 1)));
  const Offset next = *shipping_;
  shipping_.reset();
  return next;
}

}  // namespace pagesieve::pipeline
