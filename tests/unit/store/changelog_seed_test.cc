// Seeding the changelog from state already on disk (docs/changelog.md,
// "Seeding"): a shard the changelog never received ships itself whole behind
// a snapshot record, and a restore that meets one starts the shard over.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "changelog_fixture.h"
#include "store/changelog.h"
#include "store/shard_restore.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::DigestOf;
using storetest::FakeTopic;
using storetest::MakeOrigin;
using storetest::Ms;
using storetest::WriteRecord;

class ChangelogSeedTest : public storetest::ChangelogTest {
 protected:
  // A shard of records [from, to) checkpointed without a changelog, as a
  // run with changelog.enabled = false leaves it.
  // Its own directory: the test's other shards are other instances' copies.
  Shard& KeptWithoutChangelog(int64_t from, int64_t to,
                              const ShardOptions& options = storetest::TestShardOptions()) {
    kept_ = env_->OpenShard("kept", storetest::kPartition, options).value();
    for (int64_t i = from; i < to; ++i) WriteRecord(*kept_, i, Ms(1000 + i), i);
    EXPECT_TRUE(kept_->Checkpoint(Offset(to)).ok());
    return *kept_;
  }

  void TearDown() override {
    kept_.reset();
    storetest::ChangelogTest::TearDown();
  }

  static bool HasContent(Shard& shard, uint64_t n) {
    return shard.LookupContent("site", DigestOf(n)).value().has_value();
  }

  std::unique_ptr<Shard> kept_;
};

size_t CountEntries(const std::vector<FakeTopic::Record>& records, size_t from = 0) {
  size_t n = 0;
  for (size_t i = from; i < records.size(); ++i) {
    n += DecodeChangelogKey(records[i].key).value().entry() && records[i].value;
  }
  return n;
}

TEST_F(ChangelogSeedTest, AShardKeptWithoutTheChangelogShipsItselfWholeOnce) {
  Shard& kept = KeptWithoutChangelog(0, 30);
  EXPECT_TRUE(kept.ships_snapshot());
  for (int64_t i = 30; i < 35; ++i) WriteRecord(kept, i, Ms(1000 + i), i);
  FakeTopic topic;
  topic.Checkpoint(kept, Offset(35));
  ASSERT_FALSE(topic.records.empty());
  EXPECT_TRUE(DecodeChangelogKey(topic.records.front().key).value().snapshot);
  EXPECT_EQ(DecodeChangelogSnapshot(*topic.records.front().value).value(), Offset(35));
  EXPECT_EQ(CountEntries(topic.records), 35u * 3);  // URL, content and near entry of each
  EXPECT_FALSE(kept.ships_snapshot());

  // The next checkpoint ships what changed only.
  const size_t seeded = topic.records.size();
  WriteRecord(kept, 35, Ms(1035), 35);
  topic.Checkpoint(kept, Offset(36));
  EXPECT_EQ(CountEntries(topic.records, seeded), 3u);

  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  Shard& restored = OpenRestored();
  EXPECT_EQ(restored.checkpointed_offset(), Offset(36));
  for (uint64_t n : {0, 29, 34, 35}) EXPECT_TRUE(HasContent(restored, n)) << n;
  EXPECT_TRUE(restored.LookupUrl("site", DigestOf(1000)).value().seen);
}

// The daemon reads a seed in pieces (ForEachSnapshotChange, a few keys at a
// time, then ForEachChange for the rest): the same records in the same
// order as one ForEachChange, held messages and pending writes included.
TEST_F(ChangelogSeedTest, ASeedReadInPiecesShipsWhatOneWalkShips) {
  using Records = std::vector<FakeTopic::Record>;
  auto append = [](Records* out) {
    return [out](std::string_view k, std::optional<std::string_view> v) {
      out->push_back({std::string(k), v ? std::optional<std::string>(std::string(*v))
                                        : std::optional<std::string>()});
    };
  };
  Shard& kept = KeptWithoutChangelog(0, 30);
  kept.PutHeld("held/a", "waiting");
  for (int64_t i = 30; i < 34; ++i) WriteRecord(kept, i, Ms(1000 + i), i);
  ASSERT_TRUE(kept.ships_snapshot());

  Records whole;
  ASSERT_TRUE(kept.ForEachChange(Offset(34), append(&whole)).ok());
  ASSERT_TRUE(kept.ships_snapshot());  // nothing is checkpointed yet

  Records pieces;
  SnapshotCursor cursor;
  int calls = 0;
  for (;;) {
    StatusOr<bool> done = kept.ForEachSnapshotChange(Offset(34), &cursor, 7, append(&pieces));
    ASSERT_TRUE(done.ok()) << done.status().ToString();
    ++calls;
    if (*done) break;
    ASSERT_LT(calls, 1000);
  }
  ASSERT_TRUE(kept.ForEachChange(Offset(34), append(&pieces)).ok());
  EXPECT_GT(calls, 90 / 7);  // 30 records' three entries, seven keys a call
  ASSERT_EQ(pieces.size(), whole.size());
  for (size_t i = 0; i < whole.size(); ++i) {
    EXPECT_EQ(pieces[i].key, whole[i].key) << i;
    EXPECT_EQ(pieces[i].value, whole[i].value) << i;
  }
}

TEST_F(ChangelogSeedTest, ACheckpointThatDidNotShipForgetsTheChangelogPosition) {
  FakeTopic topic;
  Shard* shard = &Open();
  WriteRecord(*shard, 0, Ms(1000), 0);
  topic.Checkpoint(*shard, Offset(1));
  ASSERT_TRUE(shard->changelog_next().has_value());
  EXPECT_FALSE(shard->ships_snapshot());

  // A run with the changelog off: the changelog is now behind the shard.
  WriteRecord(*shard, 1, Ms(1001), 1);
  ASSERT_TRUE(shard->Checkpoint(Offset(2)).ok());
  EXPECT_FALSE(shard->changelog_next().has_value());
  shard = &Open();
  EXPECT_FALSE(shard->changelog_next().has_value());
  EXPECT_TRUE(shard->ships_snapshot());
}

TEST_F(ChangelogSeedTest, ANewShardShipsNoSnapshot) {
  Shard& shard = Open();
  EXPECT_FALSE(shard.ships_snapshot());
  WriteRecord(shard, 0, Ms(1000), 0);
  FakeTopic topic;
  topic.Checkpoint(shard, Offset(1));
  for (const FakeTopic::Record& r : topic.records) {
    EXPECT_FALSE(DecodeChangelogKey(r.key).value().snapshot);
  }
}

// The changelog already holds another writer's history of the partition: its
// entries must not come back with the snapshot, whether the restore reads
// every record or only what compaction left.
TEST_F(ChangelogSeedTest, ASnapshotRecordVoidsEveryRecordBeforeIt) {
  FakeTopic topic;
  {
    Shard& stranger = OpenOther();
    for (int64_t i = 0; i < 10; ++i) WriteRecord(stranger, i, Ms(1000 + i), 500 + i);
    topic.Checkpoint(stranger, Offset(10));
  }
  topic.Checkpoint(KeptWithoutChangelog(0, 20), Offset(20));

  for (bool compacted : {false, true}) {
    SCOPED_TRACE(compacted);
    ASSERT_TRUE(Restore(compacted ? topic.Compacted() : topic.records, 0, topic.end()).ok());
    Shard& restored = OpenRestored();
    EXPECT_EQ(restored.checkpointed_offset(), Offset(20));
    EXPECT_TRUE(HasContent(restored, 19));
    EXPECT_FALSE(HasContent(restored, 500));
    EXPECT_FALSE(restored.LookupUrl("site", DigestOf(1500)).value().seen);
    Close();
  }
}

// A shard that caught up from the changelog earlier meets, on its next
// catch-up, a snapshot of a shard kept elsewhere: it takes the snapshot's
// state and checkpoint, even a checkpoint behind its own, since the two go
// together.
TEST_F(ChangelogSeedTest, ACatchUpThatMeetsASnapshotStartsTheShardOver) {
  FakeTopic topic;
  {
    Shard& writer = OpenOther();
    for (int64_t i = 0; i < 30; ++i) WriteRecord(writer, i, Ms(1000 + i), 500 + i);
    topic.Checkpoint(writer, Offset(30));
  }
  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  const size_t caught_up = topic.records.size();
  topic.Checkpoint(KeptWithoutChangelog(0, 20), Offset(20));

  ASSERT_TRUE(Restore(topic.records, caught_up, topic.end()).ok());
  Shard& restored = OpenRestored();
  EXPECT_EQ(restored.checkpointed_offset(), Offset(20));
  EXPECT_EQ(restored.watermark(), Ms(1019));
  EXPECT_EQ(restored.changelog_next(), topic.end());
  EXPECT_TRUE(HasContent(restored, 0));
  EXPECT_FALSE(HasContent(restored, 500));
}

TEST_F(ChangelogSeedTest, ASnapshotLeavesOutEntriesAlreadyDead) {
  ShardOptions options = storetest::TestShardOptions();
  options.url_ttl = options.exact_ttl = options.near_ttl = std::chrono::seconds(80);
  Shard& kept = OpenOther(options);
  WriteRecord(kept, 0, Ms(1000), 0);
  WriteRecord(kept, 1, Ms(200'000), 1);
  ASSERT_TRUE(kept.Checkpoint(Offset(2)).ok());
  FakeTopic topic;
  topic.Checkpoint(kept, Offset(2));
  EXPECT_EQ(CountEntries(topic.records), 3u);  // record 1's entries alone
}

TEST_F(ChangelogSeedTest, ABloomModeSnapshotCarriesTheWholeFilter) {
  ShardOptions options = storetest::TestShardOptions();
  options.url_mode = UrlMode::kBloom;
  options.url_expected_items = 10'000;
  Shard& kept = OpenOther(options);
  auto record = [&](int64_t i) {
    ASSERT_TRUE(
        kept.RecordUrl("site", DigestOf(i), MakeOrigin(i, Ms(1000)), Ms(1000), DigestOf(0)).ok());
  };
  for (int64_t i = 0; i < 100; ++i) record(i);
  ASSERT_TRUE(kept.Checkpoint(Offset(100)).ok());
  for (int64_t i = 100; i < 110; ++i) record(i);
  FakeTopic topic;
  topic.Checkpoint(kept, Offset(110));

  ASSERT_TRUE(Restore(topic.records, 0, topic.end(), options).ok());
  Shard& restored = OpenRestored(options);
  for (int64_t i = 0; i < 110; ++i) {
    EXPECT_TRUE(restored.LookupUrl("site", DigestOf(i)).value().seen) << i;
  }
}

TEST_F(ChangelogSeedTest, ForgettingThePositionKeepsTheStateAndAsksForASeed) {
  FakeTopic topic;
  Shard& shard = Open();
  WriteRecord(shard, 0, Ms(1000), 0);
  topic.Checkpoint(shard, Offset(1));
  Close();
  {
    std::unique_ptr<ShardRestore> restore =
        env_->OpenRestore("pages", storetest::kPartition, storetest::TestShardOptions()).value();
    ASSERT_TRUE(restore->ForgetChangelogPosition().ok());
  }
  Shard& reopened = OpenRestored();
  EXPECT_EQ(reopened.checkpointed_offset(), Offset(1));
  EXPECT_TRUE(HasContent(reopened, 0));
  EXPECT_TRUE(reopened.ships_snapshot());
}

TEST_F(ChangelogSeedTest, AMalformedSnapshotRecordIsCorruption) {
  EXPECT_EQ(DecodeChangelogSnapshot("short").status().code(), StatusCode::kCorruption);
  Close();
  std::unique_ptr<ShardRestore> restore =
      env_->OpenRestore("pages", storetest::kPartition, storetest::TestShardOptions()).value();
  EXPECT_EQ(restore->Apply(ChangelogSnapshotKey(), std::string_view("short")).code(),
            StatusCode::kCorruption);
}

}  // namespace
}  // namespace pagesieve::store
