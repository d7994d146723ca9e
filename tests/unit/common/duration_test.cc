#include "common/duration.h"

#include <gtest/gtest.h>

namespace pagesieve {
namespace {

using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

TEST(DurationTest, ParsesEachUnit) {
  EXPECT_EQ(*ParseDuration("250ms"), Duration(250));
  EXPECT_EQ(*ParseDuration("30s"), seconds(30));
  EXPECT_EQ(*ParseDuration("15m"), minutes(15));
  EXPECT_EQ(*ParseDuration("12h"), hours(12));
  EXPECT_EQ(*ParseDuration("7d"), hours(7 * 24));
  EXPECT_EQ(*ParseDuration("2w"), hours(14 * 24));
  EXPECT_EQ(*ParseDuration("0s"), Duration(0));
}

TEST(DurationTest, ParsesCompoundDurations) {
  EXPECT_EQ(*ParseDuration("1h30m"), minutes(90));
  EXPECT_EQ(*ParseDuration("1m500ms"), Duration(60500));
}

TEST(DurationTest, RejectsMalformedText) {
  for (const char* bad : {"", "7", "d", "-1s", "1.5h", "7 d", "7days", "1h 30m", "10y"}) {
    StatusOr<Duration> d = ParseDuration(bad);
    ASSERT_FALSE(d.ok()) << bad;
    EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(DurationTest, RejectsOverflow) {
  EXPECT_FALSE(ParseDuration("9999999999999999999s").ok());
  EXPECT_FALSE(ParseDuration("99999999999999w").ok());
}

TEST(DurationTest, FormatIsShortestAndRoundTrips) {
  EXPECT_EQ(FormatDuration(hours(7 * 24)), "1w");
  EXPECT_EQ(FormatDuration(minutes(90)), "1h30m");
  EXPECT_EQ(FormatDuration(Duration(250)), "250ms");
  EXPECT_EQ(FormatDuration(Duration(0)), "0s");
  for (int64_t ms : {1LL, 999LL, 1001LL, 86'400'001LL, 123'456'789LL}) {
    EXPECT_EQ(*ParseDuration(FormatDuration(Duration(ms))), Duration(ms)) << ms;
  }
}

}  // namespace
}  // namespace pagesieve
