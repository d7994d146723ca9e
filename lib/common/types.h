#pragma once

#include <chrono>
#include <cstdint>

#include "common/strong_int.h"

namespace pagesieve {

// A partition of the input topic (or, for files, always 0).
using PartitionId = StrongInt<struct PartitionIdTag, int32_t>;

// A position in a partition: the Kafka offset, or for files the record's
// ordinal in the input stream.
class Offset : public StrongInt<struct OffsetTag, int64_t> {
 public:
  using StrongInt::StrongInt;
  constexpr Offset Next() const { return Offset(value() + 1); }
};

// Durations and event times are milliseconds. Event time is when the crawler
// fetched the page (from the record), never the time we process it: expiry
// runs on event time so that replaying a topic gives the same verdicts.
using Duration = std::chrono::milliseconds;
using EventTime = std::chrono::sys_time<std::chrono::milliseconds>;

constexpr EventTime EventTimeFromMillis(int64_t millis) { return EventTime(Duration(millis)); }
constexpr int64_t ToMillis(EventTime t) { return t.time_since_epoch().count(); }

}  // namespace pagesieve
