#pragma once

#include <cstdint>
#include <string>

#include "common/types.h"
#include "routing/order_key.h"

namespace pagesieve::routing {

// One source partition's place in the order (docs/global-routing.md,
// "Bounded lateness"): it stamps each record's order key and keeps the
// partition's *floor*, the promise that every record it stamps from now on
// has an order key at or above Promise().
//
// The floor is the highest event time stamped so far minus max_lateness. A
// record below the floor is late: it is ordered at the floor (its key takes
// the floor's time), so late records are decided in arrival order after
// everything already promised. The floor only rises, so the floor is the
// whole state to checkpoint with the partition's offset: restored with
// it, the partition stamps a replay exactly as the first time.
//
// Not thread-safe: one partition's records are stamped in offset order.
class SourceFloor {
 public:
  struct Stamped {
    OrderKey key;
    bool late = false;  // below the floor: ordered at the floor
  };

  // `start` is the offset of the first record to be stamped; `floor` the
  // checkpointed floor (EventTime of the minimum: no promise yet).
  SourceFloor(std::string topic, PartitionId partition, Duration max_lateness, Offset start,
              EventTime floor = kNoFloor);

  // The key of the partition's record at `offset` (>= every offset stamped
  // before) with `event_time`.
  Stamped Stamp(EventTime event_time, Offset offset);

  // Every record stamped from now on has a key >= this. After End(), the
  // greatest key: nothing follows.
  OrderKey Promise() const;

  // Lifts the floor to at least `t`: an idle partition's promise moves on
  // without records (a later record below it is late).
  void LiftTo(EventTime t);
  // No record follows (a backfill's partition reached its end).
  void End() { ended_ = true; }

  EventTime floor() const { return floor_; }
  bool ended() const { return ended_; }

  static constexpr EventTime kNoFloor = EventTime::FromMillis(INT64_MIN);
  static constexpr EventTime kEndOfTime = EventTime::FromMillis(INT64_MAX);

 private:
  std::string topic_;
  PartitionId partition_;
  Duration max_lateness_;
  Offset next_;
  EventTime floor_;
  bool ended_ = false;
};

}  // namespace pagesieve::routing
