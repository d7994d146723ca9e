#include "store/bloom/generations.h"

#include <gtest/gtest.h>

namespace pagesieve::store::bloom {
namespace {

TEST(GenerationsTest, FloorDivRoundsTowardMinusInfinity) {
  EXPECT_EQ(FloorDiv(7, 2), 3);
  EXPECT_EQ(FloorDiv(-7, 2), -4);
  EXPECT_EQ(FloorDiv(-8, 2), -4);
  EXPECT_EQ(FloorDiv(0, 5), 0);
  EXPECT_EQ(FloorDiv(INT64_MIN, 1), INT64_MIN);
}

TEST(GenerationsTest, GenerationStartsAtAMultipleOfItsWidth) {
  const Duration width(100);
  EXPECT_EQ(GenerationOf(0, width), 0);
  EXPECT_EQ(GenerationOf(99, width), 0);
  EXPECT_EQ(GenerationOf(100, width), 1);
  EXPECT_EQ(GenerationOf(-1, width), -1);
}

// Live means last_seen >= watermark - ttl: the generation holding that
// cutoff is live even when the cutoff is its last millisecond.
TEST(GenerationsTest, OldestLiveGenerationHoldsTheCutoff) {
  const Duration ttl(400);
  const Duration width(100);
  EXPECT_EQ(OldestLiveGeneration(1000, ttl, width), 6);  // cutoff 600 opens generation 6
  EXPECT_EQ(OldestLiveGeneration(999, ttl, width), 5);   // cutoff 599 is generation 5's last
  EXPECT_EQ(OldestLiveGeneration(0, ttl, width), -4);
}

TEST(GenerationsTest, SlotsWrapForNegativeGenerations) {
  EXPECT_EQ(SlotOf(0, 5), 0);
  EXPECT_EQ(SlotOf(7, 5), 2);
  EXPECT_EQ(SlotOf(-1, 5), 4);
  EXPECT_EQ(SlotOf(-5, 5), 0);
}

}  // namespace
}  // namespace pagesieve::store::bloom
