// ShardInspector: a read-only view of a shard, built here with the real
// store API, and FindShards.
#include "store/shard_inspector.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <bit>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "store/testing/synthetic_records.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::DigestOf;
using storetest::MakeOrigin;
using storetest::Ms;
using ::testing::HasSubstr;

constexpr int64_t kT0 = 1'790'812'800'000;  // 2026-10-01T00:00:00Z
constexpr std::string_view kScope = "example.com";

class ShardInspectorTest : public storetest::ShardTest {
 protected:
  std::unique_ptr<ShardInspector> Inspect(
      const ShardOptions& options = storetest::TestShardOptions()) {
    StatusOr<std::unique_ptr<ShardInspector>> inspector = ShardInspector::Open(shard_dir_, options);
    EXPECT_TRUE(inspector.ok()) << inspector.status().ToString();
    return inspector.ok() ? std::move(inspector).value() : nullptr;
  }
};

// name → (size, mtime) of every file: what "writes nothing" means.
std::map<std::string, std::pair<uintmax_t, std::filesystem::file_time_type>> Snapshot(
    const std::string& dir) {
  std::map<std::string, std::pair<uintmax_t, std::filesystem::file_time_type>> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) files[e.path().string()] = {e.file_size(), e.last_write_time()};
  }
  return files;
}

TEST_F(ShardInspectorTest, ReportsProgressIdentityAndExactCounts) {
  Shard& shard = Open();
  for (int i = 0; i < 30; ++i) {
    const Origin o = MakeOrigin(i, Ms(kT0 + i));
    ASSERT_TRUE(shard.RecordUrl(kScope, DigestOf(i), o, o.event_time, DigestOf(1000 + i)).ok());
    if (i < 20) {
      ASSERT_TRUE(shard.InsertContent(kScope, DigestOf(1000 + i), o).ok());
    }
    if (i < 10) {
      ASSERT_TRUE(shard.InsertNear(kScope, 0x1111ull * (i + 1), {}, o).ok());
    }
  }
  ASSERT_TRUE(shard.Checkpoint(Offset(30)).ok());
  Close();

  auto inspector = Inspect();
  ASSERT_NE(inspector, nullptr);
  StatusOr<ShardReport> report = inspector->Report();
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->watermark, Ms(kT0 + 29));
  EXPECT_EQ(report->checkpointed_offset, Offset(30));
  EXPECT_EQ(report->identity.fingerprint_version, 1);
  EXPECT_EQ(report->identity.near_max_distance, 3);
  EXPECT_EQ(report->identity.near_tables, 4);
  EXPECT_GT(report->dir_bytes, 0u);
  ASSERT_TRUE(report->bloom.has_value());
  EXPECT_TRUE(report->bloom->matches_config);
  EXPECT_GT(report->bloom->fill_ratio, 0.0);

  ASSERT_TRUE(inspector->CountEntries(&*report).ok());
  EXPECT_EQ(report->url.stored, 30u);
  EXPECT_EQ(report->url.live, 30u);
  EXPECT_EQ(report->exact.stored, 20u);
  EXPECT_EQ(report->near.stored, 10u);
}

TEST_F(ShardInspectorTest, CountsExpiredEntriesAsStoredButNotLive) {
  Shard& shard = Open();
  const ShardOptions options = storetest::TestShardOptions();
  ASSERT_TRUE(shard.InsertContent(kScope, DigestOf(1), MakeOrigin(0, Ms(kT0))).ok());
  const EventTime later = Ms(kT0) + options.exact_ttl + Duration(1);
  ASSERT_TRUE(shard.InsertContent(kScope, DigestOf(2), MakeOrigin(1, later)).ok());
  ASSERT_TRUE(shard.Checkpoint(Offset(2)).ok());
  Close();

  auto inspector = Inspect();
  ASSERT_NE(inspector, nullptr);
  StatusOr<ShardReport> report = inspector->Report();
  ASSERT_TRUE(report.ok());
  ASSERT_TRUE(inspector->CountEntries(&*report).ok());
  EXPECT_EQ(report->exact.stored, 2u);
  EXPECT_EQ(report->exact.live, 1u);
}

TEST_F(ShardInspectorTest, ReadsTheLastCheckpointWhileAWriterHoldsTheShard) {
  Shard& shard = Open();
  ASSERT_TRUE(shard.InsertContent(kScope, DigestOf(1), MakeOrigin(0, Ms(kT0))).ok());
  ASSERT_TRUE(shard.Checkpoint(Offset(1)).ok());
  ASSERT_TRUE(shard.InsertContent(kScope, DigestOf(2), MakeOrigin(1, Ms(kT0 + 5))).ok());
  // The writer stays open, holding RocksDB's LOCK, with a write pending.
  auto inspector = Inspect();
  ASSERT_NE(inspector, nullptr);
  EXPECT_EQ(inspector->checkpointed_offset(), Offset(1));
  EXPECT_EQ(inspector->watermark(), Ms(kT0));
  auto first = inspector->InspectContent(kScope, DigestOf(1));
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->has_value());
  auto pending = inspector->InspectContent(kScope, DigestOf(2));
  ASSERT_TRUE(pending.ok());
  EXPECT_FALSE(pending->has_value());
  // And the writer carries on.
  EXPECT_TRUE(shard.Checkpoint(Offset(2)).ok());
}

TEST_F(ShardInspectorTest, WritesNothingToTheShardDirectory) {
  Shard& shard = Open();
  const Origin o = MakeOrigin(0, Ms(kT0));
  ASSERT_TRUE(shard.RecordUrl(kScope, DigestOf(1), o, o.event_time, DigestOf(2)).ok());
  ASSERT_TRUE(shard.InsertNear(kScope, 42, {}, o).ok());
  ASSERT_TRUE(shard.Checkpoint(Offset(1)).ok());
  Close();
  const auto before = Snapshot(shard_dir_);

  ShardOptions other = storetest::TestShardOptions();
  other.url_expected_items *= 2;  // a RocksShard would rebuild the filter
  auto inspector = Inspect(other);
  ASSERT_NE(inspector, nullptr);
  StatusOr<ShardReport> report = inspector->Report();
  ASSERT_TRUE(report.ok());
  ASSERT_TRUE(inspector->CountEntries(&*report).ok());
  ASSERT_TRUE(inspector->InspectUrl(kScope, DigestOf(1)).ok());
  ASSERT_TRUE(inspector->InspectNear(kScope, 42, 3).ok());
  inspector.reset();

  EXPECT_EQ(Snapshot(shard_dir_), before);
  ASSERT_TRUE(report->bloom.has_value());
  EXPECT_FALSE(report->bloom->matches_config);
  EXPECT_EQ(report->bloom->options.expected_items,
            storetest::TestShardOptions().url_expected_items);
}

TEST_F(ShardInspectorTest, UrlEntryCarriesOriginDigestAndLiveness) {
  Shard& shard = Open();
  const ShardOptions options = storetest::TestShardOptions();
  const Origin o = MakeOrigin(7, Ms(kT0));
  ASSERT_TRUE(shard.RecordUrl(kScope, DigestOf(1), o, o.event_time, DigestOf(9)).ok());
  ASSERT_TRUE(shard.Checkpoint(Offset(8)).ok());
  Close();

  auto inspector = Inspect();
  ASSERT_NE(inspector, nullptr);
  StatusOr<UrlInspection> seen = inspector->InspectUrl(kScope, DigestOf(1));
  ASSERT_TRUE(seen.ok());
  EXPECT_EQ(seen->bloom_may_contain, true);
  ASSERT_TRUE(seen->entry.has_value());
  EXPECT_EQ(seen->entry->entry.origin, o);
  EXPECT_EQ(seen->entry->entry.content, DigestOf(9));
  EXPECT_TRUE(seen->entry->live);
  EXPECT_EQ(seen->entry->live_until, Ms(kT0) + options.url_ttl);

  StatusOr<UrlInspection> other_scope = inspector->InspectUrl("other.org", DigestOf(1));
  ASSERT_TRUE(other_scope.ok());
  EXPECT_FALSE(other_scope->entry.has_value());
  EXPECT_EQ(other_scope->bloom_may_contain, false);
}

TEST_F(ShardInspectorTest, ExpiryBoundaryIsTheStoresOwn) {
  const ShardOptions options = storetest::TestShardOptions();
  for (const Duration past : {Duration(0), Duration(1)}) {
    Shard& shard = Open();
    const Origin o = MakeOrigin(0, Ms(kT0));
    ASSERT_TRUE(shard.RecordUrl(kScope, DigestOf(1), o, o.event_time, DigestOf(2)).ok());
    shard.ObserveEventTime(Ms(kT0) + options.url_ttl + past);
    ASSERT_TRUE(shard.Checkpoint(Offset(1)).ok());
    Close();
    auto inspector = Inspect();
    ASSERT_NE(inspector, nullptr);
    StatusOr<UrlInspection> r = inspector->InspectUrl(kScope, DigestOf(1));
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r->entry.has_value()) << "an expired entry is still shown";
    EXPECT_EQ(r->entry->live, past == Duration(0)) << past.count();
    inspector.reset();
    Open();
    StatusOr<UrlLookup> live = shard_->LookupUrl(kScope, DigestOf(1), {});
    ASSERT_TRUE(live.ok());
    EXPECT_EQ(live->entry.has_value(), r->entry->live) << "agrees with the shard";
    Close();
    std::filesystem::remove_all(shard_dir_);
  }
}

TEST_F(ShardInspectorTest, UnknownContentIsEmpty) {
  Shard& shard = Open();
  ASSERT_TRUE(shard.InsertContent(kScope, DigestOf(1), MakeOrigin(0, Ms(kT0))).ok());
  ASSERT_TRUE(shard.Checkpoint(Offset(1)).ok());
  Close();
  auto inspector = Inspect();
  ASSERT_NE(inspector, nullptr);
  auto missing = inspector->InspectContent(kScope, DigestOf(2));
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
}

// Every stored SimHash within the distance, in FindNear's order, with
// expired ones included: compared with a brute-force scan, within the
// tables' distance and beyond it (where the scope is scanned).
TEST_F(ShardInspectorTest, NearListsEverySimHashWithinDistanceFirstLiveIsFindNears) {
  std::mt19937_64 rng(7);
  const ShardOptions options = storetest::TestShardOptions();
  Shard& shard = Open();
  std::map<uint64_t, Origin> stored;
  const uint64_t center = rng();
  for (int i = 0; i < 300; ++i) {
    uint64_t fp = center;
    for (int b = static_cast<int>(rng() % 7); b > 0; --b) fp ^= uint64_t{1} << (rng() % 64);
    if (stored.count(fp)) continue;
    // The first third are old enough to have expired by the end.
    const EventTime t = i < 100 ? Ms(kT0) : Ms(kT0) + options.near_ttl + Duration(1000 + i);
    const Origin o = MakeOrigin(i, t);
    ASSERT_TRUE(shard.InsertNear(kScope, fp, {}, o).ok());
    stored[fp] = o;
    if (i % 50 == 0) {
      ASSERT_TRUE(shard.Checkpoint(Offset(i + 1)).ok());
    }
  }
  ASSERT_TRUE(shard.InsertNear("other.org", center, {}, MakeOrigin(999, Ms(kT0))).ok());
  ASSERT_TRUE(shard.Checkpoint(Offset(1000)).ok());

  auto inspector = Inspect();
  ASSERT_NE(inspector, nullptr);
  for (int k : {0, 2, 3, 5}) {
    const uint64_t query = center ^ (uint64_t{1} << (rng() % 64));
    StatusOr<std::vector<Inspected<NearCandidate>>> got = inspector->InspectNear(kScope, query, k);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    std::set<uint64_t> want, have;
    for (const auto& [fp, o] : stored) {
      if (std::popcount(fp ^ query) <= k) want.insert(fp);
    }
    for (const Inspected<NearCandidate>& m : *got) {
      have.insert(m.entry.simhash);
      EXPECT_EQ(m.entry.distance, std::popcount(m.entry.simhash ^ query));
      EXPECT_EQ(m.entry.origin, stored[m.entry.simhash]);
      EXPECT_EQ(m.live, m.entry.origin.offset.value() >= 100);
    }
    EXPECT_EQ(have, want) << "k=" << k;
    if (k > options.near_max_distance) continue;
    // The live ones, in order, are what FindNear finds.
    StatusOr<std::vector<NearCandidate>> find = shard.FindNear(kScope, {query, k, {}}, {});
    ASSERT_TRUE(find.ok());
    std::vector<NearCandidate> live;
    for (const auto& m : *got) {
      if (m.live) live.push_back(m.entry);
    }
    EXPECT_EQ(*find, live) << "k=" << k;
  }
}

// A near entry shows its sketch; the report shows the configured bands,
// and a count how many live entries have a sketch they index.
TEST_F(ShardInspectorTest, NearEntriesShowTheirSketchesAndTheBandsThatIndexThem) {
  Shard& shard = Open();
  const std::string sketch = testing::MakeSyntheticSketch(1);
  const std::string small = sketch.substr(0, 8 + 128);  // a header of 256 slots: malformed
  std::string other = {1, 8, static_cast<char>(128), 0, 0, 0, 0, 0};  // 128 slots of 8 bits
  other.append(128, '\x07');
  ASSERT_TRUE(shard.InsertNear(kScope, 42, sketch, MakeOrigin(0, Ms(kT0))).ok());
  ASSERT_TRUE(shard.InsertNear(kScope, 43, other, MakeOrigin(1, Ms(kT0))).ok());
  ASSERT_TRUE(shard.InsertNear(kScope, 44, {}, MakeOrigin(2, Ms(kT0))).ok());
  EXPECT_FALSE(shard.InsertNear(kScope, 45, small, MakeOrigin(3, Ms(kT0))).ok());
  ASSERT_TRUE(shard.Checkpoint(Offset(3)).ok());
  Close();

  auto inspector = Inspect();
  ASSERT_NE(inspector, nullptr);
  StatusOr<std::vector<Inspected<NearCandidate>>> got = inspector->InspectNear(kScope, 42, 2);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ((*got)[0].entry.sketch, sketch);
  EXPECT_EQ((*got)[1].entry.sketch, other);
  EXPECT_EQ((*got)[2].entry.sketch, "");
  StatusOr<ShardReport> report = inspector->Report();
  ASSERT_TRUE(report.ok());
  ASSERT_TRUE(report->lsh.has_value());
  EXPECT_EQ(report->lsh->bands, 25);
  EXPECT_EQ(report->lsh->rows, 8);
  EXPECT_EQ(report->lsh->slots, 256);
  EXPECT_EQ(report->lsh->threshold, 0.8);
  EXPECT_FALSE(report->near.banded.has_value());
  ASSERT_TRUE(inspector->CountEntries(&*report).ok());
  EXPECT_EQ(report->near.live, 3u);
  EXPECT_EQ(report->near.banded, 1u);  // the 128-slot sketch fits no band
  // A single-partition shard holds every row of its entries.
  ASSERT_TRUE(report->near.index_rows.has_value());
  EXPECT_EQ(report->near.index_rows->simhash, report->near.index_rows->simhash_of);
  EXPECT_EQ(report->near.index_rows->simhash_of, 3u * static_cast<uint64_t>(report->identity.near_tables));
  EXPECT_EQ(report->near.index_rows->lsh, 25u);
  EXPECT_EQ(report->near.index_rows->lsh_of, 25u);
}

TEST_F(ShardInspectorTest, ARoutedOwnersShardShowsTheIndexRowsItHolds) {
  Shard& shard = Open();
  NearRows some = NearRows::Some();
  some.AddTable(1);
  some.AddBand(0);
  some.AddBand(7);
  some.AddBand(24);
  const std::string sketch = testing::MakeSyntheticSketch(1);
  ASSERT_TRUE(
      shard.InsertNearRows(kScope, 42, sketch, MakeOrigin(0, Ms(kT0)), some, false).ok());
  ASSERT_TRUE(shard.InsertNear(kScope, 43, sketch, MakeOrigin(1, Ms(kT0))).ok());
  ASSERT_TRUE(shard.Checkpoint(Offset(1)).ok());
  Close();

  auto inspector = Inspect();
  ASSERT_NE(inspector, nullptr);
  StatusOr<ShardReport> report = inspector->Report();
  ASSERT_TRUE(report.ok());
  ASSERT_TRUE(inspector->CountEntries(&*report).ok());
  ASSERT_TRUE(report->near.index_rows.has_value());
  const uint64_t tables = static_cast<uint64_t>(report->identity.near_tables);
  EXPECT_EQ(report->near.index_rows->simhash, 1 + tables);
  EXPECT_EQ(report->near.index_rows->simhash_of, 2 * tables);
  EXPECT_EQ(report->near.index_rows->lsh, 3u + 25u);
  EXPECT_EQ(report->near.index_rows->lsh_of, 50u);
}

TEST_F(ShardInspectorTest, NearRefusesDistancesOutsideTheBits) {
  Open();
  ASSERT_TRUE(shard_->Checkpoint(Offset(0)).ok());
  Close();
  auto inspector = Inspect();
  ASSERT_NE(inspector, nullptr);
  EXPECT_EQ(inspector->InspectNear(kScope, 1, -1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(inspector->InspectNear(kScope, 1, 65).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(ShardInspectorTest, RefusesADirectoryThatIsNoShard) {
  std::filesystem::create_directories(shard_dir_);
  EXPECT_EQ(ShardInspector::Open(shard_dir_, storetest::TestShardOptions()).status().code(),
            StatusCode::kNotFound);
  std::ofstream(shard_dir_ + "/CURRENT") << "MANIFEST-000099\n";  // hostile: points nowhere
  StatusOr<std::unique_ptr<ShardInspector>> garbage =
      ShardInspector::Open(shard_dir_, storetest::TestShardOptions());
  EXPECT_FALSE(garbage.ok());
  EXPECT_THAT(garbage.status().message(), HasSubstr(shard_dir_));
}

TEST_F(ShardInspectorTest, RefusesARocksDbDatabaseThatIsNotAShard) {
  rocksdb::Options options;
  options.create_if_missing = true;
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, shard_dir_, &raw).ok());
  ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), "k", "v").ok());
  delete raw;  // RocksDB's C++ API hands out a raw pointer
  StatusOr<std::unique_ptr<ShardInspector>> r =
      ShardInspector::Open(shard_dir_, storetest::TestShardOptions());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(r.status().message(), HasSubstr("not a pagesieve shard"));
}

TEST(FindShardsTest, ListsShardDirectoriesWithPartitionsInNumericOrder) {
  const std::filesystem::path root = storetest::MakeTempDir();
  for (const char* name : {"pages-10", "pages-9", "dedup", "pages-2", "not-a-shard"}) {
    std::filesystem::create_directories(root / name);
    if (std::string_view(name) != "not-a-shard") std::ofstream(root / name / "CURRENT") << "x\n";
  }
  std::ofstream(root / "stray-file") << "x";
  StatusOr<std::vector<ShardDirEntry>> shards = FindShards(root.string());
  ASSERT_TRUE(shards.ok()) << shards.status().ToString();
  std::vector<std::string> names;
  for (const ShardDirEntry& s : *shards) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"dedup", "pages-2", "pages-9", "pages-10"}));
  EXPECT_EQ((*shards)[3].path, (root / "pages-10").string());

  // A shard directory given as the state directory is that one shard.
  StatusOr<std::vector<ShardDirEntry>> one = FindShards((root / "pages-9").string());
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].name, "pages-9");
  std::filesystem::remove_all(root);
}

TEST(FindShardsTest, MissingDirectoryIsNotFound) {
  EXPECT_EQ(FindShards("/nonexistent/pagesieve-state").status().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace pagesieve::store
