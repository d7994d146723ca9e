// FindNear with MinHash sketches: the candidates of the LSH bands, merged
// with those of the SimHash tables (near_store_test.cc covers the tables).
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <string>
#include <vector>

#include "store/testing/synthetic_records.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::kPartition;
using storetest::MakeOrigin;
using storetest::Ms;
using testing::MakeSyntheticSketch;
using testing::NearCopySketch;

// A sketch of `slots` slots of 8 bits, version `version`.
std::string SketchOf(int slots, int version, uint8_t fill) {
  std::string s = {static_cast<char>(version), 8, static_cast<char>(slots & 0xff),
                   static_cast<char>(slots >> 8)};
  s.append(4, '\0');  // set size: unknown
  s.append(static_cast<size_t>(slots), static_cast<char>(fill));
  return s;
}

class NearStoreLshTest : public storetest::ShardTest {
 protected:
  ShardOptions Options(Duration ttl = std::chrono::days(30)) {
    ShardOptions o = storetest::TestShardOptions();  // 256 slots of 8 bits, 25 bands x 8 rows
    o.near_ttl = ttl;
    return o;
  }
  void Insert(std::string_view scope, uint64_t simhash, const std::string& sketch, int64_t offset,
              int64_t t) {
    ASSERT_TRUE(shard_->InsertNear(scope, simhash, sketch, MakeOrigin(offset, Ms(t))).ok());
  }
  std::vector<NearCandidate> Find(std::string_view scope, uint64_t simhash,
                                  const std::string& sketch, const OriginFilter& filter = {}) {
    return shard_->FindNear(scope, {simhash, 3, sketch}, filter).value();
  }

  const std::string a_ = MakeSyntheticSketch(1);
  const std::string b_ = MakeSyntheticSketch(2);
};

TEST_F(NearStoreLshTest, TablesAloneFindACloseSimHashWithAnUnrelatedSketch) {
  Open(Options());
  Insert("s", 0b1, a_, 1, 1000);
  std::vector<NearCandidate> got = Find("s", 0, b_);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].in_tables);
  EXPECT_FALSE(got[0].in_bands);
  EXPECT_EQ(got[0].distance, 1);
  EXPECT_EQ(got[0].sketch, a_);
}

TEST_F(NearStoreLshTest, BandsAloneFindANearCopyWhoseSimHashIsFar) {
  Open(Options());
  Insert("s", 0, a_, 1, 1000);
  std::vector<NearCandidate> got = Find("s", ~uint64_t{0}, NearCopySketch(a_, 7));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].in_tables);
  EXPECT_TRUE(got[0].in_bands);
  EXPECT_EQ(got[0].distance, 64);
  EXPECT_EQ(got[0].origin, MakeOrigin(1, Ms(1000)));
  EXPECT_EQ(got[0].sketch, a_);
}

TEST_F(NearStoreLshTest, FoundByBothIsListedOnceWithBothFlags) {
  Open(Options());
  Insert("s", 0b11, a_, 1, 1000);
  std::vector<NearCandidate> got = Find("s", 0, NearCopySketch(a_, 7));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_TRUE(got[0].in_tables);
  EXPECT_TRUE(got[0].in_bands);
  EXPECT_EQ(got[0].distance, 2);
}

TEST_F(NearStoreLshTest, CandidatesOfBothKindsAreSortedByDistanceThenOrigin) {
  Open(Options());
  Insert("s", 0xff00, a_, 1, 1000);  // bands only, distance 8
  Insert("s", 0b111, b_, 2, 3000);   // tables only, distance 3
  Insert("s", 0b1, b_, 3, 2000);     // tables only, distance 1
  Insert("s", 0b10, b_, 4, 500);     // tables only, distance 1, earlier
  std::vector<NearCandidate> got = Find("s", 0, NearCopySketch(a_, 3));
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].simhash, 0b10u);
  EXPECT_EQ(got[1].simhash, 0b1u);
  EXPECT_EQ(got[2].simhash, 0b111u);
  EXPECT_EQ(got[3].simhash, 0xff00u);
  EXPECT_TRUE(got[3].in_bands);
}

TEST_F(NearStoreLshTest, WithoutAQuerySketchOnlyTheTablesAnswer) {
  Open(Options());
  Insert("s", 0b1, a_, 1, 1000);
  Insert("s", ~uint64_t{0}, a_, 2, 1000);
  std::vector<NearCandidate> got = shard_->FindNear("s", {0, 3, {}}).value();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].simhash, 0b1u);
  EXPECT_FALSE(got[0].in_bands);
  EXPECT_EQ(got[0].sketch, a_);  // still returned, for the rules to judge
}

// Sketches of other slots, bits or fingerprint version are stored and
// returned, but never compared: no band candidates either way.
TEST_F(NearStoreLshTest, SketchesOfOtherParametersAreNeverCompared) {
  Open(Options());
  // SimHashes 32 bits apart from each other: the tables find none of them
  // from the complement of another.
  constexpr uint64_t kS1 = 0x0f0f0f0f0f0f0f0f, kS2 = 0x00ff00ff00ff00ff, kS3 = 0x3333333333333333;
  const std::string small = SketchOf(128, 1, 5), other_version = SketchOf(256, 2, 6);
  Insert("s", kS1, small, 1, 1000);
  Insert("s", kS2, other_version, 2, 1000);
  Insert("s", kS3, SketchOf(256, 1, 7), 3, 1000);
  EXPECT_TRUE(Find("s", ~kS1, small).empty());
  EXPECT_TRUE(Find("s", ~kS2, other_version).empty());
  EXPECT_TRUE(Find("s", ~kS3, SketchOf(128, 1, 7)).empty());
  std::vector<NearCandidate> same = Find("s", ~kS3, SketchOf(256, 1, 7));
  ASSERT_EQ(same.size(), 1u);  // the control: same parameters do match
  std::vector<NearCandidate> by_table = Find("s", kS1, {});
  ASSERT_EQ(by_table.size(), 1u);
  EXPECT_EQ(by_table[0].sketch, small);
}

TEST_F(NearStoreLshTest, MalformedSketchesAreRefused) {
  Open(Options());
  const std::string truncated = a_.substr(0, a_.size() - 1);
  EXPECT_EQ(shard_->InsertNear("s", 1, truncated, MakeOrigin(1, Ms(1))).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(shard_->InsertNear("s", 1, "xy", MakeOrigin(1, Ms(1))).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(shard_->FindNear("s", {1, 3, truncated}).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(NearStoreLshTest, BandEntriesExpireByEventTime) {
  Open(Options(Duration(1000)));
  Insert("s", 0, a_, 1, 5000);
  shard_->ObserveEventTime(Ms(6000));
  EXPECT_EQ(Find("s", ~uint64_t{0}, a_).size(), 1u);
  shard_->ObserveEventTime(Ms(6001));
  EXPECT_TRUE(Find("s", ~uint64_t{0}, a_).empty());
  // Its generation [5000, 5125) goes once nothing in it can be live: when
  // an entry touched at 5124 + the grace (125) would be dead too.
  shard_->ObserveEventTime(Ms(6249));
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  EXPECT_EQ(shard_->Stats().lsh_index_entries, 1u);
  shard_->ObserveEventTime(Ms(6250));
  ASSERT_TRUE(shard_->Checkpoint(Offset(3)).ok());
  EXPECT_EQ(shard_->Stats().lsh_index_entries, 0u);
}

// A touch long after the insert re-indexes the entry's bands from its stored
// sketch, so it is still found by them once its first generation is gone.
TEST_F(NearStoreLshTest, TouchedEntryKeepsItsBandsPastItsFirstGeneration) {
  Open(Options(Duration(8000)));  // grace and generation width: 1000
  Insert("s", 42, a_, 1, 0);
  ASSERT_TRUE(shard_->TouchNear("s", 42, Ms(8000)).ok());
  EXPECT_EQ(shard_->Stats().lsh_index_entries, 2u);
  shard_->ObserveEventTime(Ms(12'000));
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  EXPECT_EQ(shard_->Stats().lsh_index_entries, 1u);  // the generation of 0 is gone
  std::vector<NearCandidate> got = Find("s", ~uint64_t{42}, NearCopySketch(a_, 1));
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].last_seen, Ms(8000));
}

TEST_F(NearStoreLshTest, AnInsertOverALiveEntryKeepsItsSketch) {
  Open(Options());
  Insert("s", 42, a_, 1, 1000);
  Insert("s", 42, b_, 2, 2000);
  EXPECT_TRUE(Find("s", ~uint64_t{42}, b_).empty());
  std::vector<NearCandidate> got = Find("s", ~uint64_t{42}, a_);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].origin, MakeOrigin(1, Ms(1000)));
  EXPECT_EQ(got[0].last_seen, Ms(2000));
}

TEST_F(NearStoreLshTest, BandsNeverCrossScopesOrTheReplayFilter) {
  Open(Options());
  Insert("a.com", 1, a_, 10, 1000);
  EXPECT_TRUE(Find("b.com", ~uint64_t{1}, a_).empty());
  EXPECT_EQ(Find("a.com", ~uint64_t{1}, a_, {kPartition, Offset(10)}).size(), 1u);
  EXPECT_TRUE(Find("a.com", ~uint64_t{1}, a_, {kPartition, Offset(9)}).empty());
}

TEST_F(NearStoreLshTest, WithoutBandsSketchesAreKeptButNotIndexed) {
  ShardOptions o = Options();
  o.minhash_slots = 0;
  Open(o);
  Insert("s", 1, a_, 1, 1000);
  EXPECT_TRUE(Find("s", ~uint64_t{1}, a_).empty());
  std::vector<NearCandidate> got = Find("s", 1, a_);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].in_bands);
  EXPECT_EQ(got[0].sketch, a_);
  EXPECT_EQ(shard_->Stats().lsh_bands, 0);
  EXPECT_EQ(shard_->Stats().lsh_index_entries, 0u);
}

TEST_F(NearStoreLshTest, StatsShowTheBandsAndTheIndex) {
  Open(Options());
  Insert("s", 1, a_, 1, 1000);
  Insert("s", 2, {}, 2, 1000);  // no sketch: not in the LSH index
  const ShardStats stats = shard_->Stats();
  EXPECT_EQ(stats.lsh_bands, 25);
  EXPECT_EQ(stats.lsh_rows, 8);
  EXPECT_EQ(stats.lsh_index_entries, 1u);
  EXPECT_GT(stats.lsh_index_memory_bytes, 25u * 8);
}

// Random pages with near copies, half of them checkpointed, some expired:
// after a reopen (the indexes rebuilt from the entries) every query gets
// exactly what it got from the indexes built one insert at a time.
TEST_F(NearStoreLshTest, RebuildAtOpenAnswersAsTheIncrementalIndex) {
  const Duration ttl(5000);
  Open(Options(ttl));
  std::mt19937_64 rng(21);
  std::vector<std::string> sketches;
  for (int i = 0; i < 600; ++i) {
    const bool copy = i % 2 == 1;
    sketches.push_back(copy ? NearCopySketch(sketches[rng() % sketches.size()], rng())
                            : MakeSyntheticSketch(rng()));
    Insert("s", rng(), sketches.back(), i, static_cast<int64_t>(rng() % 10'000));
    if (i == 300) {
      ASSERT_TRUE(shard_->Checkpoint(Offset(i + 1)).ok());
    }
  }
  shard_->ObserveEventTime(Ms(12'000));  // entries last seen before 7000 are dead
  std::vector<uint64_t> queries;
  std::vector<std::vector<NearCandidate>> before;
  size_t found = 0;
  for (int q = 0; q < 200; ++q) {
    queries.push_back(rng());
    before.push_back(Find("s", queries[q], NearCopySketch(sketches[q * 3], q)));
    found += before.back().size();
  }
  EXPECT_GT(found, 100u);
  ASSERT_TRUE(shard_->Checkpoint(Offset(1000)).ok());
  Open(Options(ttl));
  for (int q = 0; q < 200; ++q) {
    EXPECT_EQ(Find("s", queries[q], NearCopySketch(sketches[q * 3], q)), before[q]) << q;
  }
}

}  // namespace
}  // namespace pagesieve::store
