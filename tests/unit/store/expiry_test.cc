// Physical removal: the compaction filter drops what is dead at the durable
// watermark, and nothing else.
#include "store/expiry.h"

#include <gtest/gtest.h>

#include "store/shard_probe.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::DigestOf;
using storetest::MakeOrigin;
using storetest::Ms;

TEST(LiveCutoffTest, SaturatesInsteadOfOverflowing) {
  EXPECT_EQ(LiveCutoff(INT64_MIN + 5, Duration(10)), INT64_MIN);
  EXPECT_EQ(LiveCutoff(100, Duration(10)), 90);
  EXPECT_TRUE(IsLive(Ms(90), Ms(100), Duration(10)));
  EXPECT_FALSE(IsLive(Ms(89), Ms(100), Duration(10)));
}

class ExpiryTest : public storetest::ShardTest {
 protected:
  void SetUp() override {
    sync_ = true;  // the durable watermark is published at every synced checkpoint
    ShardTest::SetUp();
  }
  ShardOptions Options() {
    ShardOptions o = storetest::TestShardOptions();
    o.exact_ttl = Duration(1000);
    o.near_ttl = Duration(8000);  // index grace and generation width: 1000
    return o;
  }
  void Compact() { ASSERT_TRUE(ShardProbe(*shard_).CompactAll().ok()); }
  uint64_t StoredKeys(Cf cf) { return ShardProbe(*shard_).CountKeys(cf).value(); }
};

TEST_F(ExpiryTest, CompactionRemovesOnlyWhatIsDeadAtTheDurableWatermark) {
  Open(Options());
  ASSERT_TRUE(shard_->InsertContent("s", DigestOf(1), MakeOrigin(1, Ms(1000))).ok());
  ASSERT_TRUE(shard_->InsertContent("s", DigestOf(2), MakeOrigin(2, Ms(5000))).ok());
  shard_->ObserveEventTime(Ms(6000));  // 1 dead, 2 exactly at the boundary
  ASSERT_TRUE(shard_->Checkpoint(Offset(3)).ok());
  Compact();
  EXPECT_EQ(StoredKeys(kExactCf), 1u);
  EXPECT_TRUE(shard_->LookupContent("s", DigestOf(2)).value().has_value());
}

// Removing what is dead at an uncheckpointed watermark would change the
// state a restart returns to.
TEST_F(ExpiryTest, UncheckpointedWatermarkRemovesNothing) {
  Open(Options());
  ASSERT_TRUE(shard_->InsertContent("s", DigestOf(1), MakeOrigin(1, Ms(1000))).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  shard_->ObserveEventTime(Ms(9000));
  EXPECT_FALSE(shard_->LookupContent("s", DigestOf(1)).value().has_value());
  Compact();
  EXPECT_EQ(StoredKeys(kExactCf), 1u);
  Open(Options());  // back at the checkpoint, where the entry is live
  EXPECT_TRUE(shard_->LookupContent("s", DigestOf(1)).value().has_value());
}

// The SimHash index drops a generation once nothing in it can be live
// (simhash_index.h). A touch re-indexes an entry whose last_seen drifted
// more than the grace past the time it was indexed at, so it survives the
// drop of its first generation.
TEST_F(ExpiryTest, TouchedNearEntryOutlivesItsFirstIndexGeneration) {
  Open(Options());
  ASSERT_TRUE(shard_->InsertNear("s", 42, {}, MakeOrigin(1, Ms(0))).ok());
  ASSERT_TRUE(shard_->TouchNear("s", 42, Ms(8000)).ok());  // 8000 - 0 > grace: re-indexed
  EXPECT_EQ(shard_->Stats().near_index_entries, 2u);
  shard_->ObserveEventTime(Ms(12'000));  // live until 16000; indexed at 0 and at 8000
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  EXPECT_EQ(shard_->Stats().near_index_entries, 1u);  // the generation of 0 is gone
  EXPECT_EQ(shard_->FindNear("s", {43, 1, {}}).value().size(), 1u);
}

TEST_F(ExpiryTest, DeadNearEntryLeavesTheIndexAfterTheGrace) {
  Open(Options());
  ASSERT_TRUE(shard_->InsertNear("s", 42, {}, MakeOrigin(1, Ms(999))).ok());
  shard_->ObserveEventTime(Ms(9500));  // dead since 8999; its generation [0, 1000) may still
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());  // hold an entry seen at 1999, live
  EXPECT_EQ(shard_->Stats().near_index_entries, 1u);
  EXPECT_TRUE(shard_->FindNear("s", {42, 0, {}}).value().empty());
  shard_->ObserveEventTime(Ms(10'000));  // now nothing indexed before 1000 can be live
  ASSERT_TRUE(shard_->Checkpoint(Offset(3)).ok());
  EXPECT_EQ(shard_->Stats().near_index_entries, 0u);
}

// Routed dedup decides a record after later ones (docs/global-routing.md,
// "Expiry"): with a read point, lookups and writes judge liveness at the
// record's time, not at the watermark, in every store; without, as before.
TEST_F(ExpiryTest, AReadPointJudgesLivenessAtItsTimeInEveryStore) {
  Open(Options());
  ASSERT_TRUE(shard_->InsertContent("s", DigestOf(1), MakeOrigin(1, Ms(1000))).ok());
  ASSERT_TRUE(shard_->InsertNear("s", 0xabc, "", MakeOrigin(2, Ms(1000))).ok());
  shard_->ObserveEventTime(Ms(9500));  // both dead at the watermark
  EXPECT_FALSE(shard_->LookupContent("s", DigestOf(1)).value().has_value());
  NearQuery q;
  q.simhash = 0xabc;
  EXPECT_TRUE(shard_->FindNear("s", q).value().empty());

  shard_->SetReadPoint(Ms(1900));  // both alive then
  EXPECT_TRUE(shard_->LookupContent("s", DigestOf(1)).value().has_value());
  EXPECT_EQ(shard_->FindNear("s", q).value().size(), 1u);
  // A touch at the read point finds the entry alive and slides its life.
  EXPECT_TRUE(shard_->TouchContent("s", DigestOf(1), Ms(1900)).ok());
  // The watermark does not move back, nor forward with the read point.
  EXPECT_EQ(shard_->watermark(), Ms(9500));

  shard_->SetReadPoint(std::nullopt);
  EXPECT_FALSE(shard_->LookupContent("s", DigestOf(1)).value().has_value());
  EXPECT_TRUE(shard_->FindNear("s", q).value().empty());
}

// A routed owner with a record of an earlier time in flight holds expiry
// there: the checkpoint's sweep and the compaction after it keep what is
// live at the hold; once it is lifted, both remove it.
TEST_F(ExpiryTest, AHoldKeepsWhatIsLiveAtItThroughCheckpointAndCompaction) {
  Open(Options());
  ASSERT_TRUE(shard_->InsertContent("s", DigestOf(1), MakeOrigin(1, Ms(1000))).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(1)).ok());
  shard_->ObserveEventTime(Ms(9000));  // dead at the watermark
  shard_->HoldExpiry(Ms(1500));        // live at the hold
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  Compact();
  EXPECT_EQ(StoredKeys(kExactCf), 1u);
  shard_->SetReadPoint(Ms(1500));
  EXPECT_TRUE(shard_->LookupContent("s", DigestOf(1)).value().has_value());
  shard_->SetReadPoint(std::nullopt);

  shard_->HoldExpiry(std::nullopt);
  ASSERT_TRUE(shard_->Checkpoint(Offset(3)).ok());
  Compact();
  EXPECT_EQ(StoredKeys(kExactCf), 0u);
}

// A routed owner's shard reopened after a kill: until the owner, restored,
// holds again, the shard keeps holding what its last checkpoint held, in
// its SimHash index and against compaction.
TEST_F(ExpiryTest, AReopenedShardKeepsHoldingWhatItsLastCheckpointHeld) {
  Open(Options());
  ASSERT_TRUE(shard_->InsertNear("s", 42, {}, MakeOrigin(1, Ms(1000))).ok());
  ASSERT_TRUE(shard_->InsertContent("s", DigestOf(1), MakeOrigin(1, Ms(1000))).ok());
  shard_->ObserveEventTime(Ms(30000));  // both dead at the watermark
  shard_->HoldExpiry(Ms(1500));         // live at the hold
  ASSERT_TRUE(shard_->Checkpoint(Offset(1)).ok());

  Open(Options());
  Compact();
  EXPECT_EQ(StoredKeys(kExactCf), 1u);
  shard_->SetReadPoint(Ms(1500));
  EXPECT_EQ(shard_->FindNear("s", {43, 1, {}}).value().size(), 1u);
  EXPECT_TRUE(shard_->LookupContent("s", DigestOf(1)).value().has_value());
  shard_->SetReadPoint(std::nullopt);

  // Once the owner lets go, the next checkpoint forgets the hold.
  shard_->HoldExpiry(std::nullopt);
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  Open(Options());
  Compact();
  EXPECT_EQ(StoredKeys(kExactCf), 0u);
  EXPECT_TRUE(shard_->FindNear("s", {43, 1, {}}).value().empty());
}

}  // namespace
}  // namespace pagesieve::store
