#pragma once

#include <string>

#include "common/types.h"

namespace pagesieve::store {

// Where a stored entry came from: the record that created it. Verdicts quote
// it (`duplicate_of`), and a replayed record recognises itself by it.
struct Origin {
  std::string event_id;
  std::string url;  // canonical URL of that record
  EventTime event_time{};
  PartitionId partition{};
  Offset offset{};

  bool IsRecord(PartitionId p, Offset o) const { return partition == p && offset == o; }
  friend bool operator==(const Origin&, const Origin&) = default;
};

// Where an origin's record stands in its input: what tells one incarnation
// of an entry from another (an entry that died and was created again by a
// later record).
struct OriginPosition {
  EventTime event_time{};
  PartitionId partition{};
  Offset offset{};

  friend bool operator==(const OriginPosition&, const OriginPosition&) = default;
};
inline OriginPosition PositionOf(const Origin& o) { return {o.event_time, o.partition, o.offset}; }

}  // namespace pagesieve::store
