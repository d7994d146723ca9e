#include "pipeline/changelog_shipper.h"

#include <spdlog/spdlog.h>

namespace pagesieve::pipeline {

Status ChangelogShipper::Begin(store::Shard& shard, Offset next_offset) {
  const bool seeding = shard.ships_snapshot();
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
  if (seeding) LogSeed();
  shipping_ = next_offset;
  return Status::Ok();
}

void ChangelogShipper::LogSeed() const {
  size_t bytes = 0;
  for (const OutputMessage& m : unsent_) bytes += (m.key ? m.key->size() : 0) + m.value.size();
  spdlog::info(
      "seeding {}-{}: the shard has state this changelog never received (kept with the "
      "changelog off, or the topic was recreated); shipping it whole, once: {} records, {:.1f} MB",
      topic_, partition_.value(), unsent_.size(), bytes / 1e6);
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
