#include "routing/source_floor.h"

#include <gtest/gtest.h>

namespace pagesieve::routing {
namespace {

constexpr Duration kLateness{10'000};

EventTime T(int64_t ms) { return EventTime::FromMillis(ms); }

TEST(SourceFloorTest, ARecordWithinTheLatenessKeepsItsEventTime) {
  SourceFloor f("pages", PartitionId(2), kLateness, Offset(0));
  EXPECT_EQ(f.Stamp(T(100'000), Offset(0)).key,
            (OrderKey{T(100'000), "pages", PartitionId(2), Offset(0)}));
  // 9.999 s earlier than the highest so far: still within the lateness.
  const SourceFloor::Stamped s = f.Stamp(T(90'001), Offset(1));
  EXPECT_FALSE(s.late);
  EXPECT_EQ(s.key.time, T(90'001));
  EXPECT_EQ(s.key.offset, Offset(1));
}

TEST(SourceFloorTest, ALateRecordIsOrderedAtTheFloorInArrivalOrder) {
  SourceFloor f("pages", PartitionId(0), kLateness, Offset(0));
  f.Stamp(T(100'000), Offset(0));
  const SourceFloor::Stamped a = f.Stamp(T(50'000), Offset(1));
  const SourceFloor::Stamped b = f.Stamp(T(40'000), Offset(2));
  EXPECT_TRUE(a.late);
  EXPECT_TRUE(b.late);
  EXPECT_EQ(a.key.time, T(90'000));
  EXPECT_EQ(b.key.time, T(90'000));
  EXPECT_LT(a.key, b.key);  // arrival order, though b's event time is earlier
  EXPECT_EQ(f.floor(), T(90'000));  // late records do not move the floor
}

TEST(SourceFloorTest, EveryRecordStampedLaterIsAtOrAboveThePromise) {
  SourceFloor f("pages", PartitionId(1), kLateness, Offset(5));
  EXPECT_EQ(f.Promise().time, SourceFloor::kNoFloor);
  const int64_t times[] = {50'000, 70'000, 20'000, 65'000, 90'000, 10'000, 80'001, 95'000};
  int64_t offset = 5;
  for (int64_t t : times) {
    const OrderKey promise = f.Promise();
    const SourceFloor::Stamped s = f.Stamp(T(t), Offset(offset++));
    EXPECT_LE(promise, s.key) << ToString(promise) << " then " << ToString(s.key);
    EXPECT_LE(promise, f.Promise());  // promises only rise
  }
}

TEST(SourceFloorTest, TheFloorIsTheStateARestartNeeds) {
  SourceFloor first("pages", PartitionId(0), kLateness, Offset(0));
  first.Stamp(T(100'000), Offset(0));
  first.Stamp(T(95'000), Offset(1));
  // A restart from the checkpoint after offset 1 stamps offset 2 as the
  // first run did.
  SourceFloor again("pages", PartitionId(0), kLateness, Offset(2), first.floor());
  const SourceFloor::Stamped a = first.Stamp(T(80'000), Offset(2));
  const SourceFloor::Stamped b = again.Stamp(T(80'000), Offset(2));
  EXPECT_EQ(a.key, b.key);
  EXPECT_EQ(a.late, b.late);
  EXPECT_TRUE(b.late);
}

TEST(SourceFloorTest, AnIdlePartitionLiftsItsFloorAndALaterRecordBelowItIsLate) {
  SourceFloor f("pages", PartitionId(0), kLateness, Offset(0));
  f.Stamp(T(100'000), Offset(0));
  f.LiftTo(T(500'000));
  f.LiftTo(T(300'000));  // never lowers
  EXPECT_EQ(f.Promise().time, T(500'000));
  const SourceFloor::Stamped s = f.Stamp(T(490'000), Offset(1));
  EXPECT_TRUE(s.late);
  EXPECT_EQ(s.key.time, T(500'000));
}

TEST(SourceFloorTest, AnEndedPartitionPromisesEverything) {
  SourceFloor f("pages", PartitionId(0), kLateness, Offset(0));
  f.End();
  EXPECT_TRUE(f.ended());
  EXPECT_LT((OrderKey{T(INT64_MAX - 1), "zzz", PartitionId(INT32_MAX), Offset(0)}),
            f.Promise());
}

TEST(SourceFloorTest, EventTimesNearTheMinimumDoNotWrapTheFloor) {
  SourceFloor f("pages", PartitionId(0), kLateness, Offset(0));
  f.Stamp(T(INT64_MIN + 5), Offset(0));
  EXPECT_EQ(f.floor(), SourceFloor::kNoFloor);
  EXPECT_FALSE(f.Stamp(T(INT64_MIN + 1), Offset(1)).late);
}

}  // namespace
}  // namespace pagesieve::routing
