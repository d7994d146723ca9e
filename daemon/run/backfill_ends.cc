#include "run/backfill_ends.h"

namespace pagesieve::run {

Status BackfillEnds::Compute(kafka::Consumer& consumer, int32_t partitions, const Clock& clock,
                             Clock::SteadyTime deadline) {
  known_ = true;
  if (!enabled()) return Status::Ok();
  for (int32_t i = 0; i < partitions; ++i) {
    const PartitionId p(i);
    PS_ASSIGN_OR_RETURN(auto marks, consumer.AwaitWatermarks(p, clock, deadline));
    Offset end(marks.second);
    if (until_.kind == EndPosition::Kind::kTime) {
      StatusOr<std::optional<Offset>> at =
          consumer.OffsetForTime(p, until_.time.AsTimePoint(), std::chrono::seconds(10));
      if (at.ok() && *at) end = **at;
    }
    ends_[p] = end;
  }
  return Status::Ok();
}

std::optional<Offset> BackfillEnds::EndOf(PartitionId partition) const {
  auto it = ends_.find(partition);
  if (it == ends_.end()) return std::nullopt;
  return it->second;
}

bool BackfillEnds::Complete() const {
  if (!enabled() || !known_) return false;
  for (const auto& [p, end] : ends_) {
    if (reached_.count(p) == 0 && elsewhere_.count(p) == 0) return false;
  }
  return true;
}

std::vector<PartitionId> BackfillEnds::Unreached() const {
  std::vector<PartitionId> out;
  for (const auto& [p, end] : ends_) {
    if (reached_.count(p) == 0 && elsewhere_.count(p) == 0) out.push_back(p);
  }
  return out;
}

}  // namespace pagesieve::run
