#include "pipeline/backpressure.h"

#include <spdlog/spdlog.h>

namespace pagesieve::pipeline {

void Backpressure::Apply(size_t pending_bytes, int64_t unacknowledged,
                         const std::vector<PartitionId>& open, Source& source) {
  const bool over = pending_bytes > max_pending_bytes_ || unacknowledged > max_unacknowledged_;
  const bool under =
      pending_bytes < max_pending_bytes_ / 2 && unacknowledged < max_unacknowledged_ / 2;
  std::vector<PartitionId> change;
  for (PartitionId p : open) {
    if ((over && !paused(p)) || (under && paused(p))) change.push_back(p);
  }
  if (change.empty()) return;
  if (over) {
    spdlog::debug("backpressure: pausing {} partitions ({} bytes pending, {} unacknowledged)",
                  change.size(), pending_bytes, unacknowledged);
    paused_.insert(change.begin(), change.end());
    source.Pause(change);
  } else {
    for (PartitionId p : change) paused_.erase(p);
    spdlog::debug("backpressure: resuming {} partitions ({} bytes pending, {} unacknowledged)", change.size(), pending_bytes, unacknowledged);
    source.Resume(change);
  }
}

}  // namespace pagesieve::pipeline
