#pragma once

#include <chrono>
#include <compare>
#include <cstdint>

namespace pagesieve {

// Durations are milliseconds throughout.
using Duration = std::chrono::milliseconds;

// The wall clock's time, as Clock::Now() reads it: for stamping output,
// measuring lag and timeouts. Never an input to expiry.
using WallTime = std::chrono::sys_time<std::chrono::milliseconds>;

// When the crawler fetched a page (from the record), never when pagesieve
// processes it: expiry runs on event time so that replaying a topic gives the
// same verdicts. A type of its own, so that the wall clock cannot flow into
// a watermark or a TTL check unnoticed: the one crossing is the explicit
// FromWallClock(), used where an event time is judged against the clock.
//
// Milliseconds since the Unix epoch; the default is the epoch itself.
class EventTime {
 public:
  constexpr EventTime() = default;
  static constexpr EventTime FromMillis(int64_t millis) { return EventTime(millis); }
  // The event time a page fetched right now would carry. Only for comparing
  // event times with the clock (event.max_future, lag metrics).
  static constexpr EventTime FromWallClock(WallTime t) {
    return EventTime(t.time_since_epoch().count());
  }

  constexpr int64_t millis() const { return millis_; }
  // As a calendar time point, for formatting.
  constexpr WallTime AsTimePoint() const { return WallTime(Duration(millis_)); }

  friend constexpr auto operator<=>(EventTime, EventTime) = default;
  friend constexpr EventTime operator+(EventTime t, Duration d) {
    return EventTime(t.millis_ + d.count());
  }
  friend constexpr EventTime operator-(EventTime t, Duration d) {
    return EventTime(t.millis_ - d.count());
  }
  friend constexpr Duration operator-(EventTime a, EventTime b) {
    return Duration(a.millis_ - b.millis_);
  }
  constexpr EventTime& operator+=(Duration d) { return *this = *this + d; }
  constexpr EventTime& operator-=(Duration d) { return *this = *this - d; }

 private:
  constexpr explicit EventTime(int64_t millis) : millis_(millis) {}
  int64_t millis_ = 0;
};

constexpr EventTime EventTimeFromMillis(int64_t millis) { return EventTime::FromMillis(millis); }
constexpr int64_t ToMillis(EventTime t) { return t.millis(); }
constexpr WallTime WallTimeFromMillis(int64_t millis) { return WallTime(Duration(millis)); }

}  // namespace pagesieve
