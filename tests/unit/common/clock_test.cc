#include "common/clock.h"

#include <gtest/gtest.h>

namespace pagesieve {
namespace {

TEST(ManualClockTest, MovesOnlyWhenTold) {
  ManualClock clock(WallTimeFromMillis(1000));
  EXPECT_EQ(clock.Now().time_since_epoch().count(), 1000);
  Clock::SteadyTime before = clock.SteadyNow();
  clock.Advance(std::chrono::seconds(5));
  EXPECT_EQ(clock.Now().time_since_epoch().count(), 6000);
  EXPECT_EQ(clock.SteadyNow() - before, std::chrono::seconds(5));
  clock.Set(WallTimeFromMillis(42));
  EXPECT_EQ(clock.Now().time_since_epoch().count(), 42);
}

TEST(SystemClockTest, IsMonotonicAndNearTheRealTime) {
  Clock& clock = Clock::System();
  Clock::SteadyTime a = clock.SteadyNow();
  Clock::SteadyTime b = clock.SteadyNow();
  EXPECT_LE(a, b);
  // After 2020-01-01: catches a clock that returns zero or the wrong unit.
  EXPECT_GT(clock.Now().time_since_epoch().count(), 1'577'836'800'000);
}

}  // namespace
}  // namespace pagesieve
