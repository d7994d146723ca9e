#include "routing/progress_tracker.h"

namespace pagesieve::routing {

void ProgressTracker::Expect(const SourceId& source) { promises_.try_emplace(source); }

bool ProgressTracker::Promise(const SourceId& source, const OrderKey& promise) {
  std::optional<OrderKey>& known = promises_[source];
  if (known && !(*known < promise)) return false;
  known = promise;
  return true;
}

std::optional<OrderKey> ProgressTracker::PromiseOf(const SourceId& source) const {
  const auto it = promises_.find(source);
  return it == promises_.end() ? std::nullopt : it->second;
}

std::optional<OrderKey> ProgressTracker::Frontier() const {
  std::optional<OrderKey> lowest;
  for (const auto& [source, promise] : promises_) {
    if (!promise) return std::nullopt;
    if (!lowest || *promise < *lowest) lowest = *promise;
  }
  return lowest;
}

bool ProgressTracker::Ready(const OrderKey& key) const {
  const std::optional<OrderKey> frontier = Frontier();
  return frontier && key < *frontier;
}

}  // namespace pagesieve::routing
