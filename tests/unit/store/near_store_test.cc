#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <random>
#include <tuple>

#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::kPartition;
using storetest::MakeOrigin;
using storetest::Ms;


// What the store should hold, and the answer a full scan gives.
struct Model {
  struct Entry {
    Origin origin;
    EventTime last_seen;
  };
  Duration ttl;
  EventTime watermark{};
  std::map<uint64_t, Entry> entries;  // one scope

  // An insert observes its time, then touches a live entry or replaces it.
  void Insert(uint64_t fp, const Origin& origin) {
    watermark = std::max(watermark, origin.event_time);
    auto it = entries.find(fp);
    if (it == entries.end() || it->second.last_seen < watermark - ttl) {
      entries[fp] = Entry{origin, origin.event_time};
    } else if (origin.event_time > it->second.last_seen) {
      it->second.last_seen = origin.event_time;
    }
  }

  // Every live entry within the distance, closest first, then earliest.
  std::vector<NearCandidate> BruteForce(uint64_t q, int max_distance, EventTime watermark,
                                        Duration ttl, const OriginFilter& filter) const {
    std::vector<NearCandidate> all;
    for (const auto& [fp, e] : entries) {
      const int d = std::popcount(fp ^ q);
      if (d > max_distance || e.last_seen < watermark - ttl || !filter.Accepts(e.origin)) continue;
      all.push_back({fp, d, true, false, e.origin, e.last_seen, ""});
    }
    auto rank = [](const NearCandidate& m) {
      return std::tuple(m.distance, m.origin.event_time, m.origin.partition, m.origin.offset,
                        m.simhash);
    };
    std::sort(all.begin(), all.end(),
              [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    return all;
  }
};

class NearStoreTest : public storetest::ShardTest {
 protected:
  ShardOptions Options(int max_distance, Duration ttl = std::chrono::days(30)) {
    ShardOptions o = storetest::TestShardOptions();
    o.near_max_distance = max_distance;
    o.near_ttl = ttl;
    return o;
  }
  // The first candidate: the closest, then earliest, SimHash (no sketches here).
  std::optional<NearCandidate> Find(std::string_view scope, uint64_t q, int d,
                                    const OriginFilter& filter = {}) {
    std::vector<NearCandidate> all = shard_->FindNear(scope, {q, d, {}}, filter).value();
    if (all.empty()) return std::nullopt;
    return all.front();
  }
  void Insert(std::string_view scope, uint64_t fp, int64_t offset, int64_t t) {
    ASSERT_TRUE(shard_->InsertNear(scope, fp, {}, MakeOrigin(offset, Ms(t))).ok());
  }

  // Random clustered fingerprints, half checkpointed and half in the
  // uncheckpointed batch, some expired; every query at every distance
  // 0..max_distance must give the brute-force answer, and again after a
  // checkpoint (which drops expired index generations) and a reopen (which
  // rebuilds the index from the entries).
  void CheckAgainstBruteForce(int max_distance, int clusters, int per_cluster, int queries);
  void CheckQueries(const Model& model, const std::vector<uint64_t>& centers, int max_distance,
                    int queries, int total, std::mt19937_64& rng);
};

void NearStoreTest::CheckAgainstBruteForce(int max_distance, int clusters, int per_cluster,
                                           int queries) {
  const Duration ttl(5000);
  Open(Options(max_distance, ttl));
  std::mt19937_64 rng(1000 + max_distance);
  Model model{ttl};
  std::vector<uint64_t> centers(clusters);
  for (uint64_t& c : centers) c = rng();
  const int total = clusters * per_cluster;
  for (int i = 0; i < total; ++i) {
    const uint64_t fp = storetest::FlipBits(centers[rng() % clusters], rng() % (2 * max_distance + 2), rng);
    const Origin origin = MakeOrigin(i, Ms(static_cast<int64_t>(rng() % 10'000)));
    ASSERT_TRUE(shard_->InsertNear("s", fp, {}, origin).ok());
    model.Insert(fp, origin);
    ASSERT_TRUE(shard_->InsertNear("other", storetest::FlipBits(fp, 1, rng), {}, MakeOrigin(i, Ms(1))).ok());
    if (i == total / 2) {
      ASSERT_TRUE(shard_->Checkpoint(Offset(i + 1)).ok());
    }
  }
  shard_->ObserveEventTime(Ms(12'000));  // entries last seen before 7000 are dead
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      ASSERT_TRUE(shard_->Checkpoint(Offset(total + 1)).ok());
      Open(Options(max_distance, ttl));
    }
    CheckQueries(model, centers, max_distance, queries, total, rng);
  }
}

void NearStoreTest::CheckQueries(const Model& model, const std::vector<uint64_t>& centers,
                                 int max_distance, int queries, int total, std::mt19937_64& rng) {
  const Duration ttl = model.ttl;
  const int clusters = static_cast<int>(centers.size());
  for (int i = 0; i < queries; ++i) {
    const uint64_t q = i % 10 == 0 ? rng() : storetest::FlipBits(centers[rng() % clusters], rng() % 8, rng);
    const OriginFilter filter =
        i % 3 == 0 ? OriginFilter{kPartition, Offset(rng() % total)} : OriginFilter{};
    for (int d = 0; d <= max_distance; ++d) {
      const std::vector<NearCandidate> want = model.BruteForce(q, d, Ms(12'000), ttl, filter);
      const std::vector<NearCandidate> got = shard_->FindNear("s", {q, d, {}}, filter).value();
      ASSERT_EQ(got, want) << "query " << i << " d=" << d;
    }
  }
}

TEST_F(NearStoreTest, MatchesBruteForceAtEveryDistanceUpToThree) {
  CheckAgainstBruteForce(3, 150, 12, 300);
}

TEST_F(NearStoreTest, MatchesBruteForceAtEveryDistanceUpToSix) {
  CheckAgainstBruteForce(6, 60, 10, 50);
}

TEST_F(NearStoreTest, ClosestMatchWinsOverAnEarlierOne) {
  Open(Options(3));
  Insert("s", 0b111, 1, 1000);  // distance 3 from 0, earlier
  Insert("s", 0b1, 2, 2000);    // distance 1
  std::optional<NearCandidate> m = Find("s", 0, 3);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->simhash, 0b1u);
  EXPECT_EQ(m->distance, 1);
}

TEST_F(NearStoreTest, TiesGoToTheEarliestOrigin) {
  Open(Options(3));
  Insert("s", 0b10, 1, 2000);
  Insert("s", 0b01, 2, 1000);  // same distance, earlier event time
  std::optional<NearCandidate> m = Find("s", 0, 3);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->origin, MakeOrigin(2, Ms(1000)));
}

TEST_F(NearStoreTest, NothingBeyondTheAskedDistance) {
  Open(Options(3));
  Insert("s", 0b111, 1, 1000);
  EXPECT_FALSE(Find("s", 0, 2).has_value());
  EXPECT_TRUE(Find("s", 0, 3).has_value());
}

TEST_F(NearStoreTest, DistanceBeyondTheTablesIsRefused) {
  Open(Options(3));
  EXPECT_EQ(shard_->FindNear("s", {0, 4, {}}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(shard_->FindNear("s", {0, -1, {}}).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(NearStoreTest, ScopesNeverMatchEachOther) {
  Open(Options(3));
  Insert("a.com", 42, 1, 1000);
  EXPECT_FALSE(Find("b.com", 42, 3).has_value());
}

TEST_F(NearStoreTest, LiveAtExactTtlBoundaryAndDeadOneMillisecondLater) {
  Open(Options(3, Duration(1000)));
  Insert("s", 42, 1, 5000);
  shard_->ObserveEventTime(Ms(6000));
  EXPECT_TRUE(Find("s", 43, 3).has_value());
  shard_->ObserveEventTime(Ms(6001));
  EXPECT_FALSE(Find("s", 43, 3).has_value());
}

TEST_F(NearStoreTest, SecondInsertKeepsTheOriginAndSlidesLastSeen) {
  Open(Options(3));
  Insert("s", 42, 1, 1000);
  Insert("s", 42, 2, 3000);
  std::optional<NearCandidate> m = Find("s", 42, 0);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->origin, MakeOrigin(1, Ms(1000)));
  EXPECT_EQ(m->last_seen, Ms(3000));
}

TEST_F(NearStoreTest, TouchOfAnAbsentEntryIsNotFound) {
  Open(Options(3));
  EXPECT_EQ(shard_->TouchNear("s", 42, Ms(1)).code(), StatusCode::kNotFound);
}

TEST_F(NearStoreTest, ReplayedRecordFindsItselfButNotLaterRecords) {
  Open(Options(3));
  Insert("s", 42, 10, 1000);
  std::optional<NearCandidate> own = Find("s", 42, 3, {kPartition, Offset(10)});
  ASSERT_TRUE(own.has_value());
  EXPECT_TRUE(own->origin.IsRecord(kPartition, Offset(10)));
  EXPECT_FALSE(Find("s", 42, 3, {kPartition, Offset(9)}).has_value());
}

TEST_F(NearStoreTest, FindsEntriesAcrossCheckpointAndReopen) {
  Open(Options(3));
  Insert("s", 42, 1, 1000);
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  Insert("s", 43, 2, 1001);  // in the overlay
  EXPECT_EQ(Find("s", 40, 3)->simhash, 42u);
  EXPECT_EQ(Find("s", 47, 1)->simhash, 43u);
  ASSERT_TRUE(shard_->Checkpoint(Offset(3)).ok());
  Open(Options(3));
  EXPECT_EQ(Find("s", 47, 1)->simhash, 43u);
}

}  // namespace
}  // namespace pagesieve::store
