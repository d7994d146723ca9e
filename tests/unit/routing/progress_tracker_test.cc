#include "routing/progress_tracker.h"

#include <gtest/gtest.h>

namespace pagesieve::routing {
namespace {

OrderKey Key(int64_t t, int32_t p, int64_t o) {
  return OrderKey{EventTime::FromMillis(t), "pages", PartitionId(p), Offset(o)};
}
SourceId Source(int32_t p) { return SourceId{"pages", PartitionId(p)}; }

TEST(ProgressTrackerTest, NothingIsReadyUntilEveryExpectedSourceHasPromised) {
  ProgressTracker t;
  EXPECT_FALSE(t.Frontier());
  t.Expect(Source(0));
  t.Expect(Source(1));
  t.Promise(Source(0), Key(100, 0, 7));
  EXPECT_FALSE(t.Frontier());
  EXPECT_FALSE(t.Ready(Key(1, 0, 0)));
  t.Promise(Source(1), Key(50, 1, 3));
  ASSERT_TRUE(t.Frontier());
  EXPECT_EQ(*t.Frontier(), Key(50, 1, 3));
}

TEST(ProgressTrackerTest, ARecordIsReadyStrictlyBelowTheLowestPromise) {
  ProgressTracker t;
  t.Promise(Source(0), Key(100, 0, 7));
  t.Promise(Source(1), Key(50, 1, 3));
  EXPECT_TRUE(t.Ready(Key(50, 1, 2)));   // partition 1's own earlier record
  EXPECT_TRUE(t.Ready(Key(50, 0, 99)));  // same time, earlier partition
  EXPECT_FALSE(t.Ready(Key(50, 1, 3)));  // partition 1 may still send this one
  EXPECT_FALSE(t.Ready(Key(60, 0, 0)));
}

TEST(ProgressTrackerTest, PromisesOnlyRise) {
  ProgressTracker t;
  t.Promise(Source(0), Key(100, 0, 7));
  t.Promise(Source(0), Key(90, 0, 5));  // a replayed progress message
  EXPECT_EQ(*t.Frontier(), Key(100, 0, 7));
  t.Promise(Source(0), Key(120, 0, 9));
  EXPECT_EQ(*t.Frontier(), Key(120, 0, 9));
}

TEST(ProgressTrackerTest, ExpectingAKnownSourceKeepsItsPromise) {
  ProgressTracker t;
  t.Promise(Source(0), Key(100, 0, 7));
  t.Expect(Source(0));
  EXPECT_EQ(*t.Frontier(), Key(100, 0, 7));
}

}  // namespace
}  // namespace pagesieve::routing
