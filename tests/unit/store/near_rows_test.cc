// A shard that holds some of its near entries' index rows (a routed near
// owner's share, store::NearRows): what it finds, what it keeps across a
// reopen, and that owners sharing the rows find together what one shard
// holding every row finds.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "store/testing/synthetic_records.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::MakeOrigin;
using storetest::Ms;
using testing::MakeSyntheticSketch;
using testing::NearCopySketch;


NearRows BandsOnly(int bands) {
  NearRows rows = NearRows::Some();
  for (int b = 0; b < bands; ++b) rows.AddBand(b);
  return rows;
}

NearRows TablesOnly(int tables) {
  NearRows rows = NearRows::Some();
  for (int t = 0; t < tables; ++t) rows.AddTable(t);
  return rows;
}

class NearRowsTest : public storetest::ShardTest {
 protected:
  ShardOptions Options() {
    ShardOptions o = storetest::TestShardOptions();  // 25 LSH bands
    o.near_ttl = Duration(8000);                      // grace and generation width: 1000
    return o;
  }
  std::vector<NearCandidate> Find(Shard& shard, uint64_t simhash, const std::string& sketch) {
    return shard.FindNear("s", {simhash, 3, sketch}, {}).value();
  }
  int tables() const { return shard_->Stats().near_tables; }
  int bands() const { return shard_->Stats().lsh_bands; }

  const std::string a_ = MakeSyntheticSketch(1);
  const std::string b_ = MakeSyntheticSketch(2);
};

TEST_F(NearRowsTest, AnEntryIsFoundOnlyByTheRowsItsShardHolds) {
  Open(Options());
  ASSERT_TRUE(shard_->InsertNearRows("s", 42, a_, MakeOrigin(1, Ms(1000)), BandsOnly(bands()),
                                     /*home=*/false)
                  .ok());
  ASSERT_TRUE(shard_->InsertNearRows("s", 7, b_, MakeOrigin(2, Ms(1000)), TablesOnly(tables()),
                                     /*home=*/false)
                  .ok());
  // 42 by its bands only: not by its SimHash with another sketch.
  EXPECT_TRUE(Find(*shard_, 42, MakeSyntheticSketch(3)).empty());
  std::vector<NearCandidate> got = Find(*shard_, ~uint64_t{42}, NearCopySketch(a_, 5));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].simhash, 42u);
  EXPECT_TRUE(got[0].in_bands);
  // 7 by its tables only: not by a near copy of its sketch far away.
  EXPECT_TRUE(Find(*shard_, ~uint64_t{7}, NearCopySketch(b_, 5)).empty());
  got = Find(*shard_, 7 ^ 0b11, MakeSyntheticSketch(4));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].simhash, 7u);
  // A slim row (no home here): the origin's position, no sketch, no URL.
  EXPECT_TRUE(got[0].sketch.empty());
  EXPECT_TRUE(got[0].origin.url.empty() && got[0].origin.event_id.empty());
  EXPECT_EQ(PositionOf(got[0].origin), PositionOf(MakeOrigin(2, Ms(1000))));

  ShardStats stats = shard_->Stats();
  EXPECT_EQ(stats.near_index_rows, static_cast<uint64_t>(tables()));
  EXPECT_EQ(stats.lsh_index_rows, static_cast<uint64_t>(bands()));

  // A touch long after re-indexes the entry with the rows it was stored
  // with, and a reopen rebuilds the indexes from them.
  ASSERT_TRUE(shard_->TouchNear("s", 42, Ms(5000)).ok());
  EXPECT_EQ(shard_->Stats().lsh_index_rows, 2u * static_cast<uint64_t>(bands()));
  EXPECT_EQ(shard_->Stats().near_index_rows, static_cast<uint64_t>(tables()));
  ASSERT_TRUE(shard_->Checkpoint(Offset(3)).ok());
  Open(Options());
  stats = shard_->Stats();
  EXPECT_EQ(stats.near_index_rows, static_cast<uint64_t>(tables()));
  EXPECT_EQ(stats.lsh_index_rows, static_cast<uint64_t>(bands()));
  EXPECT_TRUE(Find(*shard_, 42, MakeSyntheticSketch(3)).empty());
  EXPECT_TRUE(Find(*shard_, ~uint64_t{7}, NearCopySketch(b_, 5)).empty());
  EXPECT_EQ(Find(*shard_, ~uint64_t{42}, NearCopySketch(a_, 5)).size(), 1u);
  EXPECT_EQ(Find(*shard_, 7 ^ 0b11, MakeSyntheticSketch(4)).size(), 1u);
}

// The home of an entry keeps each incarnation whole under its origin's
// position: a content owner that found the entry elsewhere fetches it from
// there, even after the entry died and a later record made it again.
TEST_F(NearRowsTest, AHomeKeepsEachIncarnationWholeUntilItExpires) {
  Open(Options());  // ttl 8 s
  const Origin first = MakeOrigin(1, Ms(1000));
  ASSERT_TRUE(shard_->InsertNearRows("s", 42, a_, first, TablesOnly(1), /*home=*/true).ok());
  StatusOr<std::optional<NearCandidate>> got = shard_->NearHomeEntry("s", 42, PositionOf(first));
  ASSERT_TRUE(got.ok() && *got) << got.status().ToString();
  EXPECT_EQ((*got)->origin, first);
  EXPECT_EQ((*got)->sketch, a_);
  // Another position is another incarnation: not this one.
  EXPECT_FALSE(*shard_->NearHomeEntry("s", 42, PositionOf(MakeOrigin(2, Ms(1000)))));
  // A touch at the home slides the whole incarnation with the entry.
  ASSERT_TRUE(shard_->TouchNearHome("s", 42, Ms(5000)).ok());
  EXPECT_EQ((*shard_->NearHomeEntry("s", 42, PositionOf(first)))->last_seen, Ms(5000));

  // Dead at 13 s; a record at 14 s makes it again, with another sketch.
  const Origin second = MakeOrigin(7, Ms(14000));
  ASSERT_TRUE(shard_->InsertNearRows("s", 42, b_, second, TablesOnly(1), /*home=*/true).ok());
  got = shard_->NearHomeEntry("s", 42, PositionOf(second));
  ASSERT_TRUE(got.ok() && *got);
  EXPECT_EQ((*got)->sketch, b_);
  got = shard_->NearHomeEntry("s", 42, PositionOf(first));
  ASSERT_TRUE(got.ok() && *got) << "the first incarnation was replaced";
  EXPECT_EQ((*got)->sketch, a_);

  // Kept across a reopen, beside an index that holds the entry once.
  ASSERT_TRUE(shard_->Checkpoint(Offset(8)).ok());
  Open(Options());
  EXPECT_EQ(shard_->Stats().near_index_rows, 1u);
  EXPECT_TRUE(*shard_->NearHomeEntry("s", 42, PositionOf(second)));
  // An owner that is not the home keeps no incarnation of its own.
  ASSERT_TRUE(shard_->InsertNearRows("s", 9, a_, MakeOrigin(9, Ms(14000)), TablesOnly(1), false)
                  .ok());
  ASSERT_TRUE(shard_->TouchNear("s", 9, Ms(15000)).ok());
  ASSERT_TRUE(shard_->InsertNearRows("s", 9, b_, MakeOrigin(10, Ms(30000)), TablesOnly(1), false)
                  .ok());
  EXPECT_FALSE(*shard_->NearHomeEntry("s", 9, PositionOf(MakeOrigin(9, Ms(14000)))));
}

// Each row of each entry given to one of three owners at random: the three
// find together exactly what one shard holding every row finds, before and
// after a reopen, and hold each row once between them.
TEST_F(NearRowsTest, OwnersSharingTheRowsFindWhatOneShardWithEveryRowFinds) {
  constexpr int kOwners = 3;
  Open(Options());
  std::vector<std::unique_ptr<Shard>> owners(kOwners);
  auto open_owners = [&] {
    for (int i = 0; i < kOwners; ++i) {
      owners[i].reset();
      owners[i] = env_->OpenShardAt((root_ / ("owner" + std::to_string(i))).string(), Options())
                      .value();
    }
  };
  open_owners();
  std::mt19937_64 rng(5);
  std::vector<uint64_t> centers(40);
  for (uint64_t& c : centers) c = rng();
  std::vector<std::string> sketches;
  std::map<uint64_t, bool> used;
  for (int i = 0; i < 600; ++i) {
    const uint64_t simhash = storetest::FlipBits(centers[rng() % centers.size()], 1 + rng() % 8, rng);
    if (used[simhash]) continue;  // one entry per SimHash: no insert over a live one
    used[simhash] = true;
    sketches.push_back(i % 2 == 1 ? NearCopySketch(sketches[rng() % sketches.size()], rng())
                                  : MakeSyntheticSketch(rng()));
    const Origin origin = MakeOrigin(i, Ms(static_cast<int64_t>(rng() % 4000)));
    ASSERT_TRUE(shard_->InsertNear("s", simhash, sketches.back(), origin).ok());
    std::vector<NearRows> share(kOwners, NearRows::Some());
    std::vector<bool> holds(kOwners);
    for (int t = 0; t < tables(); ++t) {
      const size_t o = rng() % kOwners;
      share[o].AddTable(t);
      holds[o] = true;
    }
    for (int b = 0; b < bands(); ++b) {
      const size_t o = rng() % kOwners;
      share[o].AddBand(b);
      holds[o] = true;
    }
    for (int o = 0; o < kOwners; ++o) {
      if (!holds[o]) continue;
      ASSERT_TRUE(owners[o]
                      ->InsertNearRows("s", simhash, sketches.back(), origin, share[o],
                                       /*home=*/false)
                      .ok());
    }
  }
  size_t found = 0;
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      ASSERT_TRUE(shard_->Checkpoint(Offset(1000)).ok());
      for (auto& owner : owners) ASSERT_TRUE(owner->Checkpoint(Offset(1000)).ok());
      Open(Options());
      open_owners();
    }
    // Each row once, between them (the reopen rebuilds the same rows).
    uint64_t owner_rows = 0, owner_lsh_rows = 0;
    for (const auto& owner : owners) {
      owner_rows += owner->Stats().near_index_rows;
      owner_lsh_rows += owner->Stats().lsh_index_rows;
      EXPECT_LT(owner->Stats().lsh_index_memory_bytes, shard_->Stats().lsh_index_memory_bytes);
    }
    EXPECT_EQ(owner_rows, shard_->Stats().near_index_rows) << "pass " << pass;
    EXPECT_EQ(owner_lsh_rows, shard_->Stats().lsh_index_rows) << "pass " << pass;
    for (int q = 0; q < 300; ++q) {
      const uint64_t simhash = storetest::FlipBits(centers[rng() % centers.size()], rng() % 6, rng);
      const std::string sketch = q % 3 == 0 ? MakeSyntheticSketch(rng())
                                            : NearCopySketch(sketches[rng() % sketches.size()], q);
      // The owners' rows are slim (none is a home here), and each judges a
      // shared band by its own bands: their answers merged as a content
      // owner merges them (routing::GatheredStores).
      std::map<uint64_t, NearCandidate> want, got;
      for (NearCandidate& c : Find(*shard_, simhash, sketch)) {
        c.origin.event_id.clear();
        c.origin.url.clear();
        c.sketch.clear();
        want.emplace(c.simhash, c);
      }
      for (auto& owner : owners) {
        for (NearCandidate& c : Find(*owner, simhash, sketch)) {
          auto [it, fresh] = got.emplace(c.simhash, c);
          it->second.in_bands |= c.in_bands;
          it->second.in_tables |= c.in_tables;
        }
      }
      ASSERT_EQ(got, want) << "pass " << pass << ", query " << q;
      found += want.size();
    }
  }
  EXPECT_GT(found, 300u);  // the queries find something
}

}  // namespace
}  // namespace pagesieve::store
