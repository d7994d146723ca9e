#include "common/time_format.h"

#include <gtest/gtest.h>

namespace pagesieve {
namespace {

TEST(TimeFormatTest, ParsesUtc) {
  EXPECT_EQ(ToMillis(*ParseRfc3339("1970-01-01T00:00:00Z")), 0);
  EXPECT_EQ(ToMillis(*ParseRfc3339("2026-11-20T10:00:00Z")), 1'795'168'800'000);
}

TEST(TimeFormatTest, AppliesOffsets) {
  EXPECT_EQ(*ParseRfc3339("2026-11-20T12:00:00+02:00"), *ParseRfc3339("2026-11-20T10:00:00Z"));
  EXPECT_EQ(*ParseRfc3339("2026-11-19T23:30:00-10:30"), *ParseRfc3339("2026-11-20T10:00:00Z"));
}

TEST(TimeFormatTest, KeepsMillisecondsAndTruncatesFinerFractions) {
  EXPECT_EQ(ToMillis(*ParseRfc3339("1970-01-01T00:00:01.5Z")), 1500);
  EXPECT_EQ(ToMillis(*ParseRfc3339("1970-01-01T00:00:01.123999Z")), 1123);
}

TEST(TimeFormatTest, AcceptsLowercaseAndSpaceSeparator) {
  EXPECT_EQ(*ParseRfc3339("2026-11-20t10:00:00z"), *ParseRfc3339("2026-11-20 10:00:00Z"));
}

TEST(TimeFormatTest, RejectsInvalidTimes) {
  for (const char* bad : {"", "2026-11-20", "2026-11-20T10:00Z", "2026-13-01T00:00:00Z",
                          "2026-02-30T00:00:00Z", "2026-11-20T24:00:00Z",
                          "2026-11-20T10:00:00", "2026-11-20T10:00:00+0200",
                          "2026-11-20T10:00:00.Z", "2026-11-20T10:00:00Zjunk"}) {
    EXPECT_FALSE(ParseRfc3339(bad).ok()) << bad;
  }
}

TEST(TimeFormatTest, FormatsUtcWithMillisecondsOnlyWhenPresent) {
  EXPECT_EQ(FormatRfc3339(EventTimeFromMillis(1'795'168'800'000)), "2026-11-20T10:00:00Z");
  EXPECT_EQ(FormatRfc3339(EventTimeFromMillis(1'795'168'800'042)), "2026-11-20T10:00:00.042Z");
  EXPECT_EQ(FormatRfc3339(EventTimeFromMillis(-1000)), "1969-12-31T23:59:59Z");
}

TEST(TimeFormatTest, RoundTrips) {
  for (int64_t ms : {0LL, 951'782'400'000LL /* 2000-02-29 */, 1'795'168'800'042LL}) {
    EventTime t = EventTimeFromMillis(ms);
    EXPECT_EQ(*ParseRfc3339(FormatRfc3339(t)), t);
  }
}

}  // namespace
}  // namespace pagesieve
