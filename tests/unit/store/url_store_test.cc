#include <gtest/gtest.h>

#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::DigestOf;
using storetest::kPartition;
using storetest::MakeOrigin;
using storetest::Ms;

class UrlStoreTest : public storetest::ShardTest {
 protected:
  UrlLookup Lookup(std::string_view scope, uint64_t url, const OriginFilter& filter = {}) {
    return shard_->LookupUrl(scope, DigestOf(url), filter).value();
  }
  void Record(std::string_view scope, uint64_t url, int64_t offset, int64_t t, uint64_t content) {
    ASSERT_TRUE(
        shard_->RecordUrl(scope, DigestOf(url), MakeOrigin(offset, Ms(t)), Ms(t), DigestOf(content))
            .ok());
  }
};

TEST_F(UrlStoreTest, UnknownUrlIsNotSeen) {
  Open();
  UrlLookup r = Lookup("a.com", 1);
  EXPECT_FALSE(r.seen);
  EXPECT_FALSE(r.entry.has_value());
}

TEST_F(UrlStoreTest, RecordedUrlIsSeenWithItsOriginAndContent) {
  Open();
  Record("a.com", 1, 10, 1000, 77);
  UrlLookup r = Lookup("a.com", 1);
  ASSERT_TRUE(r.seen);
  ASSERT_TRUE(r.entry.has_value());
  EXPECT_EQ(r.entry->origin, MakeOrigin(10, Ms(1000)));
  EXPECT_EQ(r.entry->last_seen, Ms(1000));
  EXPECT_EQ(r.entry->content, DigestOf(77));
  // The creating record is the last writer; there was no digest before it.
  EXPECT_EQ(r.entry->last_write, (UrlWrite{kPartition, Offset(10), DigestOf(77)}));
}

TEST_F(UrlStoreTest, RevisitKeepsOriginSlidesLastSeenAndStoresNewContent) {
  Open();
  Record("a.com", 1, 10, 1000, 77);
  Record("a.com", 1, 11, 5000, 78);
  UrlLookup r = Lookup("a.com", 1);
  ASSERT_TRUE(r.entry.has_value());
  EXPECT_EQ(r.entry->origin, MakeOrigin(10, Ms(1000)));
  EXPECT_EQ(r.entry->last_seen, Ms(5000));
  EXPECT_EQ(r.entry->content, DigestOf(78));
  EXPECT_EQ(r.entry->last_write, (UrlWrite{kPartition, Offset(11), DigestOf(77)}));
}

// A replay: the last writer records again and finds its own write. The
// digest its write replaced stays, so its replays compare with that.
TEST_F(UrlStoreTest, TheLastWriterRecordingAgainChangesNothing) {
  Open();
  Record("a.com", 1, 10, 1000, 77);
  Record("a.com", 1, 11, 5000, 78);
  const UrlEntry before = *Lookup("a.com", 1).entry;
  Record("a.com", 1, 11, 5000, 78);
  UrlLookup r = Lookup("a.com", 1);
  ASSERT_TRUE(r.entry.has_value());
  EXPECT_EQ(r.entry->origin, before.origin);
  EXPECT_EQ(r.entry->last_seen, before.last_seen);
  EXPECT_EQ(r.entry->content, before.content);
  EXPECT_EQ(r.entry->last_write, (UrlWrite{kPartition, Offset(11), DigestOf(77)}));
}

// Positions are (partition, offset): the same offset of another partition
// is another record.
TEST_F(UrlStoreTest, TheSameOffsetOfAnotherPartitionIsANewWriter) {
  Open();
  Record("a.com", 1, 11, 1000, 77);
  ASSERT_TRUE(shard_
                  ->RecordUrl("a.com", DigestOf(1), MakeOrigin(11, Ms(2000), PartitionId(9)),
                              Ms(2000), DigestOf(78))
                  .ok());
  EXPECT_EQ(Lookup("a.com", 1).entry->last_write,
            (UrlWrite{PartitionId(9), Offset(11), DigestOf(77)}));
}

TEST_F(UrlStoreTest, LateRevisitDoesNotMoveLastSeenBack) {
  Open();
  Record("a.com", 1, 10, 5000, 77);
  Record("a.com", 1, 11, 1000, 78);
  EXPECT_EQ(Lookup("a.com", 1).entry->last_seen, Ms(5000));
}

TEST_F(UrlStoreTest, LiveAtExactTtlBoundaryAndDeadOneMillisecondLater) {
  ShardOptions o = storetest::TestShardOptions();
  o.url_ttl = Duration(1000);
  Open(o);
  Record("a.com", 1, 10, 5000, 77);
  shard_->ObserveEventTime(Ms(6000));  // last_seen == watermark - ttl
  EXPECT_TRUE(Lookup("a.com", 1).seen);
  shard_->ObserveEventTime(Ms(6001));
  EXPECT_FALSE(Lookup("a.com", 1).seen);
}

TEST_F(UrlStoreTest, DeadEntryIsReplacedWithTheNewOrigin) {
  ShardOptions o = storetest::TestShardOptions();
  o.url_ttl = Duration(1000);
  Open(o);
  Record("a.com", 1, 10, 5000, 77);
  shard_->ObserveEventTime(Ms(9000));
  Record("a.com", 1, 20, 9000, 78);
  UrlLookup r = Lookup("a.com", 1);
  ASSERT_TRUE(r.entry.has_value());
  EXPECT_EQ(r.entry->origin, MakeOrigin(20, Ms(9000)));
  // A new entry: the dead one's digest is not what its creator replaced.
  EXPECT_EQ(r.entry->last_write, (UrlWrite{kPartition, Offset(20), DigestOf(78)}));
}

TEST_F(UrlStoreTest, ScopesNeverMatchEachOther) {
  Open();
  Record("a.com", 1, 10, 1000, 77);
  EXPECT_FALSE(Lookup("b.com", 1).seen);
  EXPECT_FALSE(Lookup("", 1).seen);
}

// State ahead of the input: the record at offset 5 must not see what offset
// 10 of the same partition wrote, but sees its own entry and other partitions'.
TEST_F(UrlStoreTest, OriginFilterHidesLaterRecordsOfTheSamePartition) {
  Open();
  Record("a.com", 1, 10, 1000, 77);
  EXPECT_FALSE(Lookup("a.com", 1, {kPartition, Offset(5)}).seen);
  EXPECT_TRUE(Lookup("a.com", 1, {kPartition, Offset(10)}).seen);
  EXPECT_TRUE(Lookup("a.com", 1, {PartitionId(9), Offset(5)}).seen);
}

TEST_F(UrlStoreTest, SurvivesCheckpointAndReopen) {
  Open();
  Record("a.com", 1, 10, 1000, 77);
  Record("a.com", 1, 11, 2000, 78);
  ASSERT_TRUE(shard_->Checkpoint(Offset(12)).ok());
  Open();
  UrlLookup r = Lookup("a.com", 1);
  ASSERT_TRUE(r.entry.has_value());
  EXPECT_EQ(r.entry->origin, MakeOrigin(10, Ms(1000)));
  EXPECT_EQ(r.entry->last_write, (UrlWrite{kPartition, Offset(11), DigestOf(77)}));
}

TEST_F(UrlStoreTest, HugeOriginIsRefused) {
  Open();
  Origin o = MakeOrigin(1, Ms(1));
  o.url.assign(1 << 20, 'x');
  EXPECT_EQ(shard_->RecordUrl("a.com", DigestOf(1), o, Ms(1), DigestOf(2)).code(),
            StatusCode::kInvalidArgument);
  EXPECT_FALSE(Lookup("a.com", 1).seen);
}

}  // namespace
}  // namespace pagesieve::store

namespace pagesieve::store {
namespace {

using storetest::DigestOf;
using storetest::MakeOrigin;
using storetest::Ms;

class UrlBloomTest : public storetest::ShardTest, public ::testing::WithParamInterface<FilterKind> {
 protected:
  ShardOptions Options(UrlMode mode, uint64_t expected_items = 10'000) {
    ShardOptions o = storetest::TestShardOptions();
    o.url_mode = mode;
    o.url_expected_items = expected_items;
    o.url_ttl = Duration(4000);
    o.url_bloom_generations = 4;
    o.url_filter = GetParam();
    return o;
  }
  Status Record(uint64_t url, int64_t t) {
    return shard_->RecordUrl("a.com", DigestOf(url), MakeOrigin(static_cast<int64_t>(url), Ms(t)),
                             Ms(t), DigestOf(0));
  }
  bool Seen(uint64_t url, std::string_view scope = "a.com") {
    return shard_->LookupUrl(scope, DigestOf(url)).value().seen;
  }
  // URLs 1..n recorded, then how many of the never-recorded n+1..2n are "seen".
  int FalseHits(int n) {
    for (int i = 1; i <= n; ++i) EXPECT_TRUE(Record(i, 1000).ok());
    int hits = 0;
    for (int i = n + 1; i <= 2 * n; ++i) hits += Seen(i) ? 1 : 0;
    return hits;
  }
};

TEST_P(UrlBloomTest, BloomModeAnswersSeenWithoutAnEntry) {
  Open(Options(UrlMode::kBloom));
  ASSERT_TRUE(Record(1, 1000).ok());
  UrlLookup r = shard_->LookupUrl("a.com", DigestOf(1)).value();
  EXPECT_TRUE(r.seen);
  EXPECT_FALSE(r.entry.has_value());
  EXPECT_FALSE(Seen(1, "b.com"));
}

// An overfull filter says "maybe" for URLs never seen: bloom mode passes
// that on, exact mode never does.
TEST_P(UrlBloomTest, ExactModeTurnsFalsePositivesIntoNotSeen) {
  Open(Options(UrlMode::kBloom, 10));
  EXPECT_GT(FalseHits(2000), 0);
  Close();
  std::filesystem::remove_all(shard_dir_);
  Open(Options(UrlMode::kExact, 10));
  EXPECT_EQ(FalseHits(2000), 0);
}

TEST_P(UrlBloomTest, BloomModeForgetsWithinOneGenerationAfterTheTtl) {
  Open(Options(UrlMode::kBloom));
  ASSERT_TRUE(Record(1, 1000).ok());
  shard_->ObserveEventTime(Ms(5000));  // last_seen == watermark - ttl: live
  EXPECT_TRUE(Seen(1));
  shard_->ObserveEventTime(Ms(1000 + 4000 + 1000));  // ttl + ttl / G later
  EXPECT_FALSE(Seen(1));
}

TEST_P(UrlBloomTest, FilterSurvivesCheckpointAndReopen) {
  Open(Options(UrlMode::kBloom));
  ASSERT_TRUE(Record(1, 1000).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  ASSERT_TRUE(Record(2, 1001).ok());  // never checkpointed
  Open(Options(UrlMode::kBloom));
  EXPECT_TRUE(Seen(1));
  EXPECT_FALSE(Seen(2));
}

TEST_P(UrlBloomTest, ChangedFilterOptionsRebuildItFromExactEntries) {
  Open(Options(UrlMode::kExact));
  for (int i = 1; i <= 50; ++i) ASSERT_TRUE(Record(i, 1000).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(51)).ok());
  Open(Options(UrlMode::kExact, 20'000));
  for (int i = 1; i <= 50; ++i) EXPECT_TRUE(Seen(i)) << i;
  ASSERT_TRUE(shard_->Checkpoint(Offset(51)).ok());  // drops the old filter's pages
  Open(Options(UrlMode::kExact, 20'000));
  for (int i = 1; i <= 50; ++i) EXPECT_TRUE(Seen(i)) << i;
  EXPECT_FALSE(Seen(51));
}

TEST_P(UrlBloomTest, BloomModeKeepsItsFilterWhenOptionsChange) {
  Open(Options(UrlMode::kBloom));
  ASSERT_TRUE(Record(1, 1000).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  Open(Options(UrlMode::kBloom, 20'000));
  EXPECT_TRUE(Seen(1));
}

// A shard written with one structure opens under the other: in bloom mode it
// keeps what it has (the only record of its URLs), in exact mode the
// configured one is rebuilt from the entries.
TEST_P(UrlBloomTest, BloomModeKeepsTheStoredStructureWhenUrlFilterChanges) {
  Open(Options(UrlMode::kBloom));
  ASSERT_TRUE(Record(1, 1000).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  ShardOptions other = Options(UrlMode::kBloom);
  other.url_filter = GetParam() == FilterKind::kBloom ? FilterKind::kCuckoo : FilterKind::kBloom;
  Open(other);
  EXPECT_TRUE(Seen(1));
  EXPECT_FALSE(Seen(2));
}

TEST_P(UrlBloomTest, ExactModeRebuildsTheConfiguredStructure) {
  Open(Options(UrlMode::kExact));
  for (int i = 1; i <= 50; ++i) ASSERT_TRUE(Record(i, 1000).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(51)).ok());
  ShardOptions other = Options(UrlMode::kExact);
  other.url_filter = GetParam() == FilterKind::kBloom ? FilterKind::kCuckoo : FilterKind::kBloom;
  Open(other);
  const uint64_t memory_after_switch = shard_->Stats().bloom_memory_bytes;
  for (int i = 1; i <= 50; ++i) EXPECT_TRUE(Seen(i)) << i;
  ASSERT_TRUE(shard_->Checkpoint(Offset(51)).ok());  // the rebuilt filter's pages replace the old
  Open(other);
  for (int i = 1; i <= 50; ++i) EXPECT_TRUE(Seen(i)) << i;
  EXPECT_EQ(shard_->Stats().bloom_memory_bytes, memory_after_switch);
  Open(Options(UrlMode::kExact));
  EXPECT_NE(shard_->Stats().bloom_memory_bytes, memory_after_switch);
}

INSTANTIATE_TEST_SUITE_P(EachFilter, UrlBloomTest,
                         ::testing::Values(FilterKind::kBloom, FilterKind::kCuckoo,
                                           FilterKind::kFuse),
                         [](const ::testing::TestParamInfo<FilterKind>& kind) {
                           return kind.param == FilterKind::kBloom    ? "Bloom"
                                  : kind.param == FilterKind::kCuckoo ? "Cuckoo"
                                                                      : "Fuse";
                         });

}  // namespace
}  // namespace pagesieve::store
