#include "routing/source_floor.h"

#include <algorithm>

namespace pagesieve::routing {

SourceFloor::SourceFloor(std::string topic, PartitionId partition, Duration max_lateness,
                         Offset start, EventTime floor)
    : topic_(std::move(topic)),
      partition_(partition),
      max_lateness_(max_lateness),
      next_(start),
      floor_(floor) {}

SourceFloor::Stamped SourceFloor::Stamp(EventTime event_time, Offset offset) {
  Stamped out;
  out.late = event_time < floor_;
  out.key = OrderKey{std::max(event_time, floor_), topic_, partition_, offset};
  // Saturating: an event time near the minimum must not wrap the floor.
  if (event_time.millis() > INT64_MIN + max_lateness_.count()) {
    floor_ = std::max(floor_, event_time - max_lateness_);
  }
  next_ = std::max(next_, offset.Next());
  return out;
}

OrderKey SourceFloor::Promise() const {
  if (ended_) return OrderKey{kEndOfTime, topic_, partition_, Offset(INT64_MAX)};
  return OrderKey{floor_, topic_, partition_, next_};
}

void SourceFloor::LiftTo(EventTime t) { floor_ = std::max(floor_, t); }

}  // namespace pagesieve::routing
