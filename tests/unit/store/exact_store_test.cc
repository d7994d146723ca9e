#include <gtest/gtest.h>

#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::DigestOf;
using storetest::kPartition;
using storetest::MakeOrigin;
using storetest::Ms;

class ExactStoreTest : public storetest::ShardTest {
 protected:
  std::optional<ContentEntry> Lookup(std::string_view scope, uint64_t c,
                                     const OriginFilter& filter = {}) {
    return shard_->LookupContent(scope, DigestOf(c), filter).value();
  }
  void Insert(std::string_view scope, uint64_t c, int64_t offset, int64_t t) {
    ASSERT_TRUE(shard_->InsertContent(scope, DigestOf(c), MakeOrigin(offset, Ms(t))).ok());
  }
};

TEST_F(ExactStoreTest, UnknownDigestIsAbsent) {
  Open();
  EXPECT_FALSE(Lookup("a.com", 1).has_value());
}

TEST_F(ExactStoreTest, InsertedDigestIsFoundWithItsOrigin) {
  Open();
  Insert("a.com", 1, 10, 1000);
  std::optional<ContentEntry> e = Lookup("a.com", 1);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->origin, MakeOrigin(10, Ms(1000)));
  EXPECT_EQ(e->last_seen, Ms(1000));
}

TEST_F(ExactStoreTest, InsertOverALiveEntryKeepsTheFirstOrigin) {
  Open();
  Insert("a.com", 1, 10, 1000);
  Insert("a.com", 1, 11, 2000);
  std::optional<ContentEntry> e = Lookup("a.com", 1);
  EXPECT_EQ(e->origin, MakeOrigin(10, Ms(1000)));
  EXPECT_EQ(e->last_seen, Ms(2000));
}

TEST_F(ExactStoreTest, TouchSlidesLastSeenForwardOnly) {
  Open();
  Insert("a.com", 1, 10, 1000);
  ASSERT_TRUE(shard_->TouchContent("a.com", DigestOf(1), Ms(3000)).ok());
  EXPECT_EQ(Lookup("a.com", 1)->last_seen, Ms(3000));
  ASSERT_TRUE(shard_->TouchContent("a.com", DigestOf(1), Ms(2000)).ok());
  EXPECT_EQ(Lookup("a.com", 1)->last_seen, Ms(3000));
  EXPECT_EQ(Lookup("a.com", 1)->origin, MakeOrigin(10, Ms(1000)));
}

TEST_F(ExactStoreTest, TouchOfAnAbsentEntryIsNotFound) {
  Open();
  EXPECT_EQ(shard_->TouchContent("a.com", DigestOf(1), Ms(3000)).code(), StatusCode::kNotFound);
}

TEST_F(ExactStoreTest, TouchKeepsAnEntryAlivePastItsFirstTtl) {
  ShardOptions o = storetest::TestShardOptions();
  o.exact_ttl = Duration(1000);
  Open(o);
  Insert("a.com", 1, 10, 1000);
  ASSERT_TRUE(shard_->TouchContent("a.com", DigestOf(1), Ms(1800)).ok());
  shard_->ObserveEventTime(Ms(2800));
  EXPECT_TRUE(Lookup("a.com", 1).has_value());
}

TEST_F(ExactStoreTest, LiveAtExactTtlBoundaryAndDeadOneMillisecondLater) {
  ShardOptions o = storetest::TestShardOptions();
  o.exact_ttl = Duration(1000);
  Open(o);
  Insert("a.com", 1, 10, 5000);
  shard_->ObserveEventTime(Ms(6000));
  EXPECT_TRUE(Lookup("a.com", 1).has_value());
  shard_->ObserveEventTime(Ms(6001));
  EXPECT_FALSE(Lookup("a.com", 1).has_value());
  EXPECT_EQ(shard_->TouchContent("a.com", DigestOf(1), Ms(6001)).code(), StatusCode::kNotFound);
}

TEST_F(ExactStoreTest, ExpiryIsJudgedAtTheCurrentWatermarkAfterReopen) {
  ShardOptions o = storetest::TestShardOptions();
  o.exact_ttl = Duration(1000);
  Open(o);
  Insert("a.com", 1, 10, 5000);
  shard_->ObserveEventTime(Ms(6001));
  ASSERT_TRUE(shard_->Checkpoint(Offset(11)).ok());
  Open(o);
  EXPECT_FALSE(Lookup("a.com", 1).has_value());
}

TEST_F(ExactStoreTest, ScopesNeverMatchEachOther) {
  Open();
  Insert("a.com", 1, 10, 1000);
  EXPECT_FALSE(Lookup("b.com", 1).has_value());
}

TEST_F(ExactStoreTest, ReplayedRecordFindsItsOwnOriginButNotLaterOnes) {
  Open();
  Insert("a.com", 1, 10, 1000);
  std::optional<ContentEntry> own = Lookup("a.com", 1, {kPartition, Offset(10)});
  ASSERT_TRUE(own.has_value());
  EXPECT_TRUE(own->origin.IsRecord(kPartition, Offset(10)));
  EXPECT_FALSE(Lookup("a.com", 1, {kPartition, Offset(9)}).has_value());
}

TEST_F(ExactStoreTest, LookupsSeeWritesOfTheUncheckpointedBatch) {
  Open();
  Insert("a.com", 1, 10, 1000);
  ASSERT_TRUE(shard_->Checkpoint(Offset(11)).ok());
  Insert("a.com", 2, 11, 1001);  // in the overlay only
  EXPECT_TRUE(Lookup("a.com", 1).has_value());
  EXPECT_TRUE(Lookup("a.com", 2).has_value());
}

}  // namespace
}  // namespace pagesieve::store
