#include "routing/keyed_sequencer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace pagesieve::routing {
namespace {

OrderKey Key(int64_t t) { return OrderKey{EventTime::FromMillis(t), "in", PartitionId(0), Offset(t)}; }

std::vector<int64_t> Times(const std::vector<KeyedSequencer<int>::Released>& released) {
  std::vector<int64_t> out;
  for (const auto& r : released) out.push_back(r.key.time.millis());
  return out;
}

TEST(KeyedSequencerTest, ReleasesInOrderOnlyBelowTheFrontier) {
  KeyedSequencer<int> s;
  s.Add(Key(3), {30}, 3);
  s.Add(Key(1), {10}, 1);
  s.Add(Key(2), {20}, 2);
  EXPECT_TRUE(s.Release(std::nullopt).empty());
  EXPECT_EQ(Times(s.Release(Key(3))), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(s.waiting(), 1u);
  EXPECT_EQ(s.in_progress(), 2u);
  EXPECT_EQ(Times(s.Release(Key(4))), (std::vector<int64_t>{3}));
}

TEST(KeyedSequencerTest, ARecordWaitsForAnEarlierOneWithItsKeyAndOthersOvertake) {
  KeyedSequencer<int> s;
  s.Add(Key(1), {7}, 1);
  s.Add(Key(2), {7, 8}, 2);  // shares 7 with the first
  s.Add(Key(3), {8}, 3);     // shares 8 with the second, which waits
  s.Add(Key(4), {9}, 4);     // shares nothing
  EXPECT_EQ(Times(s.Release(Key(10))), (std::vector<int64_t>{1, 4}));
  EXPECT_TRUE(s.Release(Key(10)).empty());
  EXPECT_TRUE(s.Finish(Key(4)));
  EXPECT_TRUE(s.Release(Key(10)).empty());
  EXPECT_TRUE(s.Finish(Key(1)));
  EXPECT_EQ(Times(s.Release(Key(10))), (std::vector<int64_t>{2}));
  EXPECT_TRUE(s.Finish(Key(2)));
  EXPECT_EQ(Times(s.Release(Key(10))), (std::vector<int64_t>{3}));
}

TEST(KeyedSequencerTest, AnEarlierRecordThatArrivesLaterStillGoesFirst) {
  KeyedSequencer<int> s;
  s.Add(Key(5), {1}, 5);
  // Not ready yet: the frontier says record 2 may still come.
  EXPECT_TRUE(s.Release(Key(2)).empty());
  s.Add(Key(2), {1}, 2);
  EXPECT_EQ(Times(s.Release(Key(6))), (std::vector<int64_t>{2}));
  s.Finish(Key(2));
  EXPECT_EQ(Times(s.Release(Key(6))), (std::vector<int64_t>{5}));
}

TEST(KeyedSequencerTest, RefusesARedeliveryAndAnUnknownFinish) {
  KeyedSequencer<int> s;
  EXPECT_TRUE(s.Add(Key(1), {1, 1}, 1));  // a key listed twice is held once
  EXPECT_FALSE(s.Add(Key(1), {2}, 1));
  EXPECT_FALSE(s.Finish(Key(1)));  // not released yet
  EXPECT_EQ(s.Release(Key(2)).size(), 1u);
  EXPECT_TRUE(s.Finish(Key(1)));
  EXPECT_FALSE(s.Finish(Key(1)));
  EXPECT_TRUE(s.Add(Key(1), {2}, 1));  // finished: a new record may take the key
}

// Records of a small key space arrive in a random order (every record
// before a frontier having arrived when it is used, as the progress
// tracker guarantees); each step finishes what the step before released.
// The releases must not depend on the arrival order, and a record sharing
// a key with an earlier one is never released before that one finished.
TEST(KeyedSequencerTest, EveryArrivalOrderGivesTheSameReleases) {
  constexpr int kRecords = 300;
  std::mt19937_64 rng(11);
  std::vector<std::vector<uint64_t>> keys(kRecords);
  for (auto& k : keys) {
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < n; ++i) k.push_back(rng() % 40);
  }
  std::vector<int64_t> frontiers;
  for (int64_t f = 0; f < kRecords; f += 1 + static_cast<int64_t>(rng() % 20)) frontiers.push_back(f);
  // The end: every record ready; blocked ones leave as those before finish.
  for (int i = 0; i < kRecords; ++i) frontiers.push_back(kRecords + 100);

  std::vector<std::vector<int64_t>> reference;
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<int> arrival(kRecords);
    for (int i = 0; i < kRecords; ++i) arrival[i] = i;
    std::shuffle(arrival.begin(), arrival.end(), rng);

    KeyedSequencer<int> s;
    std::vector<bool> added(kRecords), finished(kRecords);
    std::vector<int64_t> unfinished;
    std::vector<std::vector<int64_t>> steps;
    size_t next = 0;
    for (int64_t f : frontiers) {
      // Everything before the frontier has arrived, and some later records.
      const int64_t must = std::min<int64_t>(f, kRecords);
      while (std::count(added.begin(), added.begin() + must, false) > 0 ||
             (next < arrival.size() && rng() % 3 == 0)) {
        const int r = arrival[next++];
        added[r] = true;
        ASSERT_TRUE(s.Add(Key(r), keys[r], r));
      }
      for (int64_t r : unfinished) {
        ASSERT_TRUE(s.Finish(Key(r)));
        finished[r] = true;
      }
      unfinished.clear();
      std::vector<int64_t> step;
      for (auto& rel : s.Release(Key(f))) {
        const int r = rel.item;
        for (int earlier = 0; earlier < r; ++earlier) {
          const bool shares = std::any_of(keys[r].begin(), keys[r].end(), [&](uint64_t k) {
            return std::find(keys[earlier].begin(), keys[earlier].end(), k) != keys[earlier].end();
          });
          ASSERT_FALSE(shares && !finished[earlier]) << r << " before " << earlier;
        }
        step.push_back(r);
        unfinished.push_back(r);
      }
      steps.push_back(step);
    }
    EXPECT_EQ(s.waiting(), 0u);
    if (trial == 0) {
      reference = steps;
    } else {
      EXPECT_EQ(steps, reference) << "trial " << trial;
    }
  }
}

}  // namespace
}  // namespace pagesieve::routing
