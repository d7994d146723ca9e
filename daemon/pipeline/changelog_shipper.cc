#include "pipeline/changelog_shipper.h"

#include <spdlog/spdlog.h>

namespace pagesieve::pipeline {

Status ChangelogShipper::Begin(store::Shard& shard, Offset next_offset) {
  shipping_ = next_offset;
  if (shard.ships_snapshot()) {
    seed_.emplace();
    seed_records_ = seed_bytes_ = 0;
    spdlog::info(
        "seeding {}-{}: the shard has state this changelog never received (kept with the "
        "changelog off, or the topic was recreated); shipping it whole, once, in pieces",
        topic_, partition_.value());
    return Status::Ok();
  }
  return QueueChanges(shard);
}

void ChangelogShipper::Queue(std::string_view key, std::optional<std::string_view> value) {
  if (seed_) {
    ++seed_records_;
    seed_bytes_ += key.size() + (value ? value->size() : 0);
  }
  unsent_.push_back(OutputMessage{topic_,
                                  std::string(key),
                                  value ? std::string(*value) : std::string(),
                                  {},
                                  partition_.value(),
                                  !value.has_value()});
  if (shipped_ != nullptr) shipped_->Increment();
}

Status ChangelogShipper::QueueChanges(store::Shard& shard) {
  return shard.ForEachChange(
      *shipping_,
      [this](std::string_view key, std::optional<std::string_view> value) { Queue(key, value); });
}

void ChangelogShipper::LogSeed() const {
  spdlog::info("seeded {}-{}: {} records, {:.1f} MB queued", topic_, partition_.value(),
               seed_records_, static_cast<double>(seed_bytes_) / 1e6);
}

StatusOr<bool> ChangelogShipper::Ship(Sink& sink, store::Shard& shard, bool in_transaction) {
  size_t read = 0;
  for (;;) {
    while (!unsent_.empty()) {
      Status s = sink.Send(unsent_.front(), counter_);
      if (s.code() == StatusCode::kResourceExhausted) return false;
      PS_RETURN_IF_ERROR(s);
      unsent_.pop_front();
    }
    if (!seed_) break;
    if (read >= kSeedKeysPerShip) return false;  // the next call goes on
    // Pieces small enough that what waits to be sent stays small too.
    constexpr size_t kPieceKeys = 10'000;
    PS_ASSIGN_OR_RETURN(
        const bool done,
        shard.ForEachSnapshotChange(
            *shipping_, &*seed_, kPieceKeys,
            [this](std::string_view key, std::optional<std::string_view> value) {
              Queue(key, value);
            }));
    read += kPieceKeys;
    if (done) {
      PS_RETURN_IF_ERROR(QueueChanges(shard));
      LogSeed();
      seed_.reset();
    }
  }
  return in_transaction || counter_->unacknowledged == 0;
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
