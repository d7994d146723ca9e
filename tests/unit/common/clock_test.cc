#include "common/clock.h"

#include <gtest/gtest.h>

namespace pagesieve {
namespace {

TEST(ManualClockTest, MovesOnlyWhenTold) {
  ManualClock clock(EventTimeFromMillis(1000));
  EXPECT_EQ(ToMillis(clock.Now()), 1000);
  Clock::SteadyTime before = clock.SteadyNow();
  clock.Advance(std::chrono::seconds(5));
  EXPECT_EQ(ToMillis(clock.Now()), 6000);
  EXPECT_EQ(clock.SteadyNow() - before, std::chrono::seconds(5));
  clock.Set(EventTimeFromMillis(42));
  EXPECT_EQ(ToMillis(clock.Now()), 42);
}

TEST(SystemClockTest, IsMonotonicAndNearTheRealTime) {
  Clock& clock = Clock::System();
  Clock::SteadyTime a = clock.SteadyNow();
  Clock::SteadyTime b = clock.SteadyNow();
  EXPECT_LE(a, b);
  // After 2020-01-01: catches a clock that returns zero or the wrong unit.
  EXPECT_GT(ToMillis(clock.Now()), 1'577'836'800'000);
}

}  // namespace
}  // namespace pagesieve
