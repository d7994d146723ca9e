#include "store/simhash_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::Ms;


std::set<uint64_t> Collected(const SimHashIndex& index, uint64_t q, int d) {
  std::vector<SimHashIndex::Candidate> out;
  index.Collect(q, d, &out);
  std::set<uint64_t> found;
  for (const SimHashIndex::Candidate& c : out) {
    EXPECT_EQ(c.distance, std::popcount(c.simhash ^ q));
    EXPECT_LE(c.distance, d);
    found.insert(c.simhash);
  }
  return found;
}

// Enough SimHashes that the buckets grow many times, spread over several
// generations, with neighbours at every distance: each query must find
// exactly what a scan finds.
void CheckAgainstScan(int max_distance, int max_tables) {
  const NearLayout layout = NearLayout::Create(max_distance, max_tables).value();
  SimHashIndex index(&layout, Duration(1000));
  std::mt19937_64 rng(77 + max_distance);
  std::vector<uint64_t> stored;
  for (int i = 0; i < 20'000; ++i) {
    const uint64_t fp = i % 4 == 0 || stored.empty()
                            ? rng()
                            : storetest::FlipBits(stored[rng() % stored.size()],
                                   static_cast<int>(rng() % (max_distance + 2)), rng);
    stored.push_back(fp);
    index.Add(fp, Ms(static_cast<int64_t>(i / 4)));  // generations of 4000 adds
  }
  ASSERT_EQ(index.size(), stored.size());
  ASSERT_EQ(index.generations(), 5u);
  for (int i = 0; i < 300; ++i) {
    const uint64_t q = storetest::FlipBits(stored[rng() % stored.size()], static_cast<int>(rng() % 5), rng);
    for (int d = 0; d <= max_distance; ++d) {
      std::set<uint64_t> want;
      for (uint64_t fp : stored) {
        if (std::popcount(fp ^ q) <= d) want.insert(fp);
      }
      ASSERT_EQ(Collected(index, q, d), want) << "query " << i << " d=" << d;
    }
  }
}

TEST(SimHashIndexTest, FindsWhatAScanFindsAtDistanceThree) { CheckAgainstScan(3, 0); }
TEST(SimHashIndexTest, FindsWhatAScanFindsAtDistanceSix) { CheckAgainstScan(6, 0); }
TEST(SimHashIndexTest, FindsWhatAScanFindsWithMoreTables) { CheckAgainstScan(3, 20); }

TEST(SimHashIndexTest, DropsWholeGenerationsAndRefusesTheirLateAdds) {
  const NearLayout layout = NearLayout::Create(3, 0).value();
  SimHashIndex index(&layout, Duration(1000));
  index.Add(1, Ms(999));   // generation 0: [0, 1000)
  index.Add(2, Ms(1000));  // generation 1
  index.Add(3, Ms(-1));    // generation -1: times before the epoch
  EXPECT_EQ(index.generations(), 3u);
  index.DropBefore(Ms(999));  // something indexed at 999 may still be live
  EXPECT_EQ(Collected(index, 1, 0), std::set<uint64_t>{1});
  EXPECT_TRUE(Collected(index, 3, 0).empty());
  index.DropBefore(Ms(1000));
  EXPECT_TRUE(Collected(index, 1, 0).empty());
  EXPECT_EQ(Collected(index, 2, 0), std::set<uint64_t>{2});
  index.Add(4, Ms(500));  // dead on arrival: its generation is gone
  EXPECT_TRUE(Collected(index, 4, 0).empty());
  EXPECT_EQ(index.size(), 1u);
  index.DropBefore(Ms(0));  // the floor never moves back
  index.Add(5, Ms(500));
  EXPECT_EQ(index.size(), 1u);
}

TEST(SimHashIndexTest, ContainsOnlyTheExactSimHashWhileItsGenerationLasts) {
  const NearLayout layout = NearLayout::Create(3, 0).value();
  SimHashIndex index(&layout, Duration(1000));
  std::mt19937_64 rng(9);
  std::vector<uint64_t> stored;
  for (int i = 0; i < 5000; ++i) stored.push_back(rng());
  for (uint64_t fp : stored) index.Add(fp, Ms(10));
  for (uint64_t fp : stored) {
    ASSERT_TRUE(index.Contains(fp));
    ASSERT_FALSE(index.Contains(fp ^ 1));             // a neighbour is not the SimHash
    ASSERT_FALSE(index.Contains(fp ^ (1ull << 63)));  // nor one differing in a slot-tag bit
  }
  index.DropBefore(Ms(1000));
  EXPECT_FALSE(index.Contains(stored[0]));
}

// Generations share kSlots slots; two that are kSlots widths apart cannot
// both hold live entries, so the newer one takes the slot.
TEST(SimHashIndexTest, AGenerationKSlotsNewerTakesTheSlotOfTheOlder) {
  const NearLayout layout = NearLayout::Create(3, 0).value();
  SimHashIndex index(&layout, Duration(1000));
  const int64_t later = int64_t{GenerationRing::kSlots} * 1000;  // same slot as generation 0
  index.Add(1, Ms(0));
  index.Add(2, Ms(1000));
  index.Add(3, Ms(later));
  EXPECT_FALSE(index.Contains(1));
  EXPECT_TRUE(index.Contains(2));
  EXPECT_TRUE(index.Contains(3));
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.generations(), 2u);
  index.Add(4, Ms(500));  // generation 0 again: older than the slot's owner, so dead
  EXPECT_FALSE(index.Contains(4));
  EXPECT_EQ(Collected(index, 3, 0), std::set<uint64_t>{3});
}

TEST(SimHashIndexTest, MemoryGrowsWithTheEntriesAndFallsWithTheirGeneration) {
  const NearLayout layout = NearLayout::Create(3, 0).value();
  SimHashIndex index(&layout, Duration(1000));
  const size_t empty = index.MemoryBytes();
  std::mt19937_64 rng(5);
  for (int i = 0; i < 100'000; ++i) index.Add(rng(), Ms(10));
  const size_t full = index.MemoryBytes();
  // At least 8 bytes per SimHash per table, and not wildly more.
  EXPECT_GE(full - empty, 100'000u * 8 * layout.tables());
  EXPECT_LE(full - empty, 100'000u * 24 * layout.tables());
  index.DropBefore(Ms(1000));
  EXPECT_LT(index.MemoryBytes(), empty + 4096);
}

}  // namespace
}  // namespace pagesieve::store
