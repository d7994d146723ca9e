#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "common/types.h"
#include "pipeline/source.h"

namespace pagesieve::pipeline {

// Keeps memory bounded: pauses reading when more than `max_pending_bytes`
// are read and not yet processed, or more than `max_unacknowledged` messages
// sent and not yet acknowledged, and resumes once both are below half of
// their bounds (the gap keeps it from flapping). Not thread-safe.
class Backpressure {
 public:
  Backpressure(size_t max_pending_bytes, int64_t max_unacknowledged)
      : max_pending_bytes_(max_pending_bytes), max_unacknowledged_(max_unacknowledged) {}

  // Pauses or resumes `open` partitions at `source` as the figures ask.
  void Apply(size_t pending_bytes, int64_t unacknowledged, const std::vector<PartitionId>& open,
             Source& source);
  bool paused(PartitionId partition) const { return paused_.count(partition) > 0; }
  bool any_paused() const { return !paused_.empty(); }
  // The partition's lane is gone: a new one starts unpaused.
  void Forget(PartitionId partition) { paused_.erase(partition); }

 private:
  const size_t max_pending_bytes_;
  const int64_t max_unacknowledged_;
  std::set<PartitionId> paused_;
};

}  // namespace pagesieve::pipeline
