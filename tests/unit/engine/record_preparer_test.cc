// event.max_future: which time an event's time is judged against.

#include "engine/record_preparer.h"

#include <gtest/gtest.h>

#include "config/config.h"
#include "engine_harness.h"

namespace pagesieve::engine {
namespace {

using testing::EventJson;
using testing::EventSpec;
using testing::kMinute;
using testing::kT0;

EngineOptions FifteenMinutesAhead() {
  StatusOr<Config> config = Config::FromToml("[event]\nmax_future = \"15m\"\n", "test config");
  EXPECT_TRUE(config.ok()) << config.status().ToString();
  StatusOr<EngineOptions> options = EngineOptionsFromConfig(*config);
  EXPECT_TRUE(options.ok()) << options.status().ToString();
  return *options;
}

InputRecord RecordOf(const std::string& json, std::optional<int64_t> timestamp_ms) {
  InputRecord in;
  in.value = json;
  if (timestamp_ms) in.timestamp = EventTimeFromMillis(*timestamp_ms);
  in.default_event_id = "t-0-0";
  return in;
}

// The review's case: a record refused live, twenty minutes ahead of when it
// was produced, must still be refused by a replay half an hour later (with
// the clock it would be accepted then, and get a verdict too).
TEST(RecordPreparerTest, AKafkaRecordIsJudgedAgainstItsOwnTimestampNotTheClock) {
  const EngineOptions options = FifteenMinutesAhead();
  ManualClock clock(WallTimeFromMillis(kT0));
  RecordPreparer preparer(options, clock);
  const std::string json =
      EventJson(EventSpec{.url = "https://a.example/x", .time_ms = kT0 + 20 * kMinute,
                          .text = "some words of text"});
  const InputRecord record = RecordOf(json, kT0);

  StatusOr<PreparedRecord> live = preparer.Prepare(record);
  ASSERT_FALSE(live.ok());
  EXPECT_NE(live.status().message().find("record's timestamp"), std::string::npos)
      << live.status().message();

  clock.Advance(std::chrono::minutes(30));  // the replay
  EXPECT_FALSE(preparer.Prepare(record).ok());
}

TEST(RecordPreparerTest, ARecordAheadOfTheClockButNotOfItsTimestampIsAccepted) {
  const EngineOptions options = FifteenMinutesAhead();
  ManualClock clock(WallTimeFromMillis(kT0));
  RecordPreparer preparer(options, clock);
  // Produced (and stamped) an hour after this instance's clock reads: the
  // record's timestamp is the reference, so it is not in the future.
  const std::string json = EventJson(
      EventSpec{.url = "https://a.example/x", .time_ms = kT0 + 60 * kMinute, .text = "words"});
  EXPECT_TRUE(preparer.Prepare(RecordOf(json, kT0 + 60 * kMinute)).ok());
}

TEST(RecordPreparerTest, ARecordWithoutTimestampIsJudgedAgainstTheClock) {
  const EngineOptions options = FifteenMinutesAhead();
  ManualClock clock(WallTimeFromMillis(kT0));
  RecordPreparer preparer(options, clock);
  const std::string json = EventJson(
      EventSpec{.url = "https://a.example/x", .time_ms = kT0 + 20 * kMinute, .text = "words"});
  StatusOr<PreparedRecord> early = preparer.Prepare(RecordOf(json, std::nullopt));
  ASSERT_FALSE(early.ok());
  EXPECT_NE(early.status().message().find("ahead of the clock"), std::string::npos);
  clock.Advance(std::chrono::minutes(10));
  EXPECT_TRUE(preparer.Prepare(RecordOf(json, std::nullopt)).ok());
}

}  // namespace
}  // namespace pagesieve::engine
