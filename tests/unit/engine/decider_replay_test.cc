// Replays (docs/engine.md, "Replays: a record recognises itself"): a record
// decided again against state that already holds its own writes gets the
// verdict it got the first time.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/decider.h"
#include "engine_harness.h"

namespace pagesieve::engine::testing {
namespace {

TEST(DeciderReplayTest, ReplayedRecordsGetTheVerdictsTheyGotTheFirstTime) {
  EngineHarness h;
  const std::string edited = ReplaceWord(Prose(19, 800), 400, "zeppelin");
  const std::vector<EventSpec> events = {
      {.url = "https://example.com/a", .time_ms = kT0, .text = Prose(19, 800), .event_id = "0"},
      {.url = "https://example.com/a?utm_source=t",
       .time_ms = kT0 + 1,
       .text = Prose(19, 800),
       .event_id = "1"},
      {.url = "https://example.com/b", .time_ms = kT0 + 2, .text = Prose(19, 800), .event_id = "2"},
      {.url = "https://example.com/c", .time_ms = kT0 + 3, .text = edited, .event_id = "3"},
      {.url = "https://example.com/d", .time_ms = kT0 + 4, .text = Prose(20), .event_id = "4"},
  };
  std::vector<Verdict> first;
  for (const EventSpec& e : events) first.push_back(h.Must(e));
  h.Reopen();
  // State is now ahead of the input: replay every record at its offset.
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(EncodeVerdictJson(h.Must(events[i], static_cast<int64_t>(i))),
              EncodeVerdictJson(first[i]))
        << "record " << i;
  }
  EXPECT_THAT(first[0], IsUnique());
  EXPECT_THAT(first[1], IsDuplicateOf(Tier::kUrl, "0"));
  EXPECT_THAT(first[2], IsDuplicateOf(Tier::kExact, "0"));
  EXPECT_THAT(first[3], IsDuplicateOf(Tier::kNear, "0"));
  EXPECT_THAT(first[4], IsUnique());
}

}  // namespace
}  // namespace pagesieve::engine::testing
