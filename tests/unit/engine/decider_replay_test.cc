// Replays (docs/engine.md, "Replays: a record recognises itself"): a record
// decided again against state that already holds its own writes gets the
// verdict it got the first time.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/decider.h"
#include "engine_harness.h"

namespace pagesieve::engine::testing {
namespace {

constexpr char kNews[] = "https://example.com/news";

EventSpec Visit(int64_t time_ms, int prose, std::string event_id) {
  return {.url = kNews, .time_ms = time_ms, .text = Prose(prose), .event_id = std::move(event_id)};
}

std::string Json(const Verdict& v) { return EncodeVerdictJson(v); }

// The URL entry of `v`'s URL as the shard holds it now.
store::UrlEntry UrlEntryOf(EngineHarness& h, const Verdict& v) {
  store::UrlLookup lookup = h.shard().LookupUrl(v.record.scope, v.record.fingerprints->url).value();
  EXPECT_TRUE(lookup.entry.has_value());
  return lookup.entry.value_or(store::UrlEntry{});
}

// The page changed on the revisit, so it was new. Its own write made the
// stored digest its own; the replay still compares with the one before.
TEST(DeciderReplayTest, AChangedRevisitIsUniqueAgainWhenReplayed) {
  EngineHarness h;
  h.Must(Visit(kT0, 30, "v1"));
  const Verdict first = h.Must(Visit(kT0 + kHour, 31, "v2"));  // offset 1
  ASSERT_THAT(first, IsUnique());
  h.Reopen();  // state holds v2's write: it is ahead of the input
  EXPECT_EQ(Json(h.Must(Visit(kT0 + kHour, 31, "v2"), 1)), Json(first));
}

// The same without a restart: a republished record (the re-keying stage is
// at-least-once) meets its own write in the running shard.
TEST(DeciderReplayTest, ARepublishedChangedRevisitIsUniqueAgain) {
  EngineHarness h;
  h.Must(Visit(kT0, 32, "v1"));
  const Verdict first = h.Must(Visit(kT0 + kHour, 33, "v2"));
  ASSERT_THAT(first, IsUnique());
  EXPECT_EQ(Json(h.Must(Visit(kT0 + kHour, 33, "v2"), 1)), Json(first));
}

TEST(DeciderReplayTest, AnUnchangedRevisitIsAUrlDuplicateOfTheFirstVisitAgainWhenReplayed) {
  EngineHarness h;
  h.Must(Visit(kT0, 34, "v1"));
  const Verdict first = h.Must(Visit(kT0 + kHour, 34, "v2"));
  ASSERT_THAT(first, IsDuplicateOf(Tier::kUrl, "v1"));
  h.Reopen();
  EXPECT_EQ(Json(h.Must(Visit(kT0 + kHour, 34, "v2"), 1)), Json(first));
}

TEST(DeciderReplayTest, AFirstVisitIsUniqueAgainWhenReplayed) {
  EngineHarness h;
  const Verdict first = h.Must(Visit(kT0, 35, "v1"));
  ASSERT_THAT(first, IsUnique());
  h.Reopen();
  EXPECT_EQ(Json(h.Must(Visit(kT0, 35, "v1"), 0)), Json(first));
}

TEST(DeciderReplayTest, UnderRevisitPolicyDuplicateAReplayedChangedRevisitIsAUrlDuplicateAgain) {
  EngineHarness h("[url]\non_revisit = \"duplicate\"\n");
  h.Must(Visit(kT0, 36, "v1"));
  const Verdict first = h.Must(Visit(kT0 + kHour, 37, "v2"));
  ASSERT_THAT(first, IsDuplicateOf(Tier::kUrl, "v1"));
  h.Reopen();
  EXPECT_EQ(Json(h.Must(Visit(kT0 + kHour, 37, "v2"), 1)), Json(first));
}

// A replay records the URL again; the entry must come out as the first
// pass left it, or the next replay would compare with the wrong digest.
TEST(DeciderReplayTest, ARecordReplayedTwiceGetsItsFirstVerdictBothTimes) {
  EngineHarness h;
  h.Must(Visit(kT0, 38, "v1"));
  const Verdict first = h.Must(Visit(kT0 + kHour, 39, "v2"));
  ASSERT_THAT(first, IsUnique());
  const store::UrlEntry entry = UrlEntryOf(h, first);
  EXPECT_EQ(Json(h.Must(Visit(kT0 + kHour, 39, "v2"), 1)), Json(first));
  EXPECT_EQ(Json(h.Must(Visit(kT0 + kHour, 39, "v2"), 1)), Json(first));
  const store::UrlEntry after = UrlEntryOf(h, first);
  EXPECT_EQ(after.origin, entry.origin);
  EXPECT_EQ(after.last_seen, entry.last_seen);
  EXPECT_EQ(after.content, entry.content);
  EXPECT_EQ(after.last_write, entry.last_write);
}

// After a replay the URL is compared as before: the next visit with the
// revisit's content is a URL duplicate, one with the first content changed.
TEST(DeciderReplayTest, AfterAReplayTheNextVisitIsComparedWithTheLatestContent) {
  EngineHarness h;
  h.Must(Visit(kT0, 40, "v1"));
  h.Must(Visit(kT0 + kHour, 41, "v2"));
  h.Must(Visit(kT0 + kHour, 41, "v2"), 1);
  EXPECT_THAT(h.Must(Visit(kT0 + 2 * kHour, 41, "v3")), IsDuplicateOf(Tier::kUrl, "v1"));
  EXPECT_THAT(h.Must(Visit(kT0 + 3 * kHour, 40, "v4")), IsDuplicateOf(Tier::kExact, "v1"));
}

// Every visit of a URL replayed in order from the first (a file run again
// into its own state): each replay records the URL again, which rebuilds the
// entry as the first pass wrote it, visit by visit.
TEST(DeciderReplayTest, AUrlsVisitsReplayedInOrderGetTheirVerdictsAgain) {
  EngineHarness h;
  const std::vector<EventSpec> visits = {
      Visit(kT0, 42, "v1"),              // unique
      Visit(kT0 + kHour, 42, "v2"),      // URL duplicate of v1
      Visit(kT0 + 2 * kHour, 43, "v3"),  // changed: unique
      Visit(kT0 + 3 * kHour, 43, "v4"),  // URL duplicate of v1
      Visit(kT0 + 4 * kHour, 42, "v5"),  // changed back: exact duplicate of v1
  };
  std::vector<Verdict> first;
  for (const EventSpec& e : visits) first.push_back(h.Must(e));
  h.Reopen();
  for (size_t i = 0; i < visits.size(); ++i) {
    EXPECT_EQ(Json(h.Must(visits[i], static_cast<int64_t>(i))), Json(first[i])) << "visit " << i;
  }
  EXPECT_THAT(first[2], IsUnique());
  EXPECT_THAT(first[3], IsDuplicateOf(Tier::kUrl, "v1"));
  EXPECT_THAT(first[4], IsDuplicateOf(Tier::kExact, "v1"));
}

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
