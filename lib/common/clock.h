#pragma once

#include <atomic>
#include <chrono>

#include "common/types.h"

namespace pagesieve {

// The one seam through which code reads time. Production code takes a
// Clock& (usually Clock::System()); tests pass a ManualClock and move it by
// hand, so nothing waits on or depends on the real time.
// Implementations are thread-safe.
class Clock {
 public:
  using SteadyTime = std::chrono::steady_clock::time_point;

  virtual ~Clock() = default;

  // Wall-clock time, for stamping output and measuring event-time lag.
  virtual WallTime Now() const = 0;
  // Monotonic time, for rates, timeouts and deadlines.
  virtual SteadyTime SteadyNow() const = 0;

  // The process-wide real clock.
  static Clock& System();
};

// A clock that only moves when told to. Both readings advance together.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(WallTime start = WallTime()) : now_ms_(start.time_since_epoch().count()) {}

  WallTime Now() const override { return WallTime(Duration(now_ms_.load())); }
  SteadyTime SteadyNow() const override {
    return SteadyTime(std::chrono::duration_cast<SteadyTime::duration>(Duration(now_ms_.load())));
  }

  void Advance(Duration d) { now_ms_ += d.count(); }
  void Set(WallTime t) { now_ms_ = t.time_since_epoch().count(); }

 private:
  std::atomic<int64_t> now_ms_;
};

}  // namespace pagesieve
