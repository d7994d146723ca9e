#include "common/event_time.h"

#include <gtest/gtest.h>

#include <type_traits>

#include "common/clock.h"

namespace pagesieve {
namespace {

// The point of the type: the wall clock cannot become an event time (and so
// reach a watermark or a TTL check) without saying so.
static_assert(!std::is_convertible_v<WallTime, EventTime>);
static_assert(!std::is_convertible_v<EventTime, WallTime>);
static_assert(!std::is_constructible_v<EventTime, WallTime>);
static_assert(!std::is_convertible_v<int64_t, EventTime>);
static_assert(std::is_same_v<decltype(std::declval<Clock&>().Now()), WallTime>);

TEST(EventTimeTest, MovesByDurationsAndSubtractsToADuration) {
  const EventTime t = EventTime::FromMillis(10'000);
  EXPECT_EQ((t + std::chrono::seconds(2)).millis(), 12'000);
  EXPECT_EQ((t - std::chrono::hours(1)).millis(), 10'000 - 3'600'000);
  EXPECT_EQ(t - EventTime::FromMillis(4'000), Duration(6'000));
  EventTime u = t;
  u += Duration(5);
  EXPECT_GT(u, t);
}

TEST(EventTimeTest, CrossesFromTheWallClockOnlyExplicitly) {
  ManualClock clock(WallTimeFromMillis(1'790'812'800'000));
  EXPECT_EQ(EventTime::FromWallClock(clock.Now()).millis(), 1'790'812'800'000);
  EXPECT_EQ(EventTime::FromMillis(42).AsTimePoint(), WallTimeFromMillis(42));
}

TEST(EventTimeTest, DefaultsToTheEpoch) { EXPECT_EQ(EventTime().millis(), 0); }

}  // namespace
}  // namespace pagesieve
