// The shard's changelog: what a checkpoint ships, and a restore from it
// into an empty or stale shard (docs/changelog.md).
#include "store/changelog.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "changelog_fixture.h"
#include "store/codec.h"
#include "store/shard_db.h"
#include "store/shard_meta.h"
#include "store/shard_probe.h"
#include "store/shard_restore.h"
#include "store/testing/synthetic_records.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::ChangelogTest;
using storetest::DigestOf;
using storetest::FakeTopic;
using storetest::MakeOrigin;
using storetest::Ms;
using storetest::WriteRecord;

TEST_F(ChangelogTest, RestoreReturnsTheStateOffsetAndWatermarkOfTheLastCheckpoint) {
  FakeTopic topic;
  Shard& source = OpenOther();
  for (int64_t i = 0; i < 50; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(50));
  for (int64_t i = 50; i < 80; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(80));

  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  Shard& restored = OpenRestored();
  EXPECT_EQ(restored.checkpointed_offset(), Offset(80));
  EXPECT_EQ(restored.watermark(), Ms(1079));
  EXPECT_EQ(restored.changelog_next(), topic.end());
  for (uint64_t n : {0, 49, 79}) {
    SCOPED_TRACE(n);
    std::optional<ContentEntry> content = restored.LookupContent("site", DigestOf(n)).value();
    ASSERT_TRUE(content.has_value());
    EXPECT_EQ(content->origin.offset, Offset(static_cast<int64_t>(n)));
    UrlLookup url = restored.LookupUrl("site", DigestOf(1000 + n)).value();
    ASSERT_TRUE(url.seen);  // the Bloom filter was rebuilt from the restored entries
    EXPECT_EQ(url.entry->content, DigestOf(n));
    EXPECT_EQ(url.entry->last_write,
              (UrlWrite{storetest::kPartition, Offset(static_cast<int64_t>(n)), DigestOf(n)}));
    std::vector<NearCandidate> near =
        restored.FindNear("site", {0x9e3779b97f4a7c15ULL * (n + 1) ^ 0b101, 3, {}}).value();
    ASSERT_EQ(near.size(), 1u);
    EXPECT_EQ(near[0].distance, 2);
    EXPECT_EQ(near[0].origin.offset, Offset(static_cast<int64_t>(n)));
  }
  EXPECT_FALSE(restored.LookupContent("site", DigestOf(80)).value().has_value());
}

// The sketches travel inside the near values, and the restored shard
// rebuilds its LSH index from them: the same queries find the same
// candidates, by their bands alone (the SimHashes are far apart).
TEST_F(ChangelogTest, RestoredShardFindsTheSameLshCandidates) {
  FakeTopic topic;
  Shard& source = OpenOther();
  for (int64_t i = 0; i < 40; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(40));
  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  Shard& restored = OpenRestored();
  for (uint64_t n : {0, 17, 39}) {
    SCOPED_TRACE(n);
    const std::string copy = testing::NearCopySketch(testing::MakeSyntheticSketch(n), n);
    const NearQuery query{~(0x9e3779b97f4a7c15ULL * (n + 1)), 3, copy};
    std::vector<NearCandidate> want = source.FindNear("site", query).value();
    ASSERT_EQ(want.size(), 1u);
    EXPECT_TRUE(want[0].in_bands);
    EXPECT_FALSE(want[0].in_tables);
    EXPECT_EQ(want[0].sketch, testing::MakeSyntheticSketch(n));
    EXPECT_EQ(restored.FindNear("site", query).value(), want);
  }
}

TEST_F(ChangelogTest, ACompactedChangelogRestoresTheSameState) {
  FakeTopic topic;
  Shard& source = OpenOther();
  for (int64_t i = 0; i < 20; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(20));
  // Revisits slide last_seen: the same keys again, with newer values.
  for (int64_t i = 20; i < 40; ++i) {
    ASSERT_TRUE(source.TouchContent("site", DigestOf(i - 20), Ms(5000 + i)).ok());
  }
  topic.Checkpoint(source, Offset(40));

  ASSERT_TRUE(Restore(topic.Compacted(), 0, topic.end()).ok());
  Shard& restored = OpenRestored();
  EXPECT_EQ(restored.checkpointed_offset(), Offset(40));
  std::optional<ContentEntry> c = restored.LookupContent("site", DigestOf(3)).value();
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->last_seen, Ms(5023));  // the latest value, not the first
  EXPECT_EQ(c->origin.offset, Offset(3));
}

TEST_F(ChangelogTest, CatchUpAppliesOnlyTheRecordsAfterTheLocalPosition) {
  FakeTopic topic;
  const size_t first_end = RestoreTenThenShipFifteen(topic);
  ASSERT_TRUE(Restore(topic.records, first_end, topic.end()).ok());
  Shard& restored = OpenRestored();
  EXPECT_EQ(restored.checkpointed_offset(), Offset(25));
  EXPECT_TRUE(restored.LookupContent("site", DigestOf(2)).value().has_value());
  EXPECT_TRUE(restored.LookupContent("site", DigestOf(20)).value().has_value());
  EXPECT_TRUE(restored.LookupUrl("site", DigestOf(1020)).value().seen);
}

// A restore whose partition is revoked is destroyed unfinished, inside the
// rebalance callback: it must not spend seconds flushing what it applied,
// which counts for nothing without its progress. The next restore applies
// it again from the old position.
TEST_F(ChangelogTest, AnAbandonedRestoreIsNotFlushedAtCloseAndTheNextOneAppliesItAgain) {
  FakeTopic topic;
  const size_t first_end = RestoreTenThenShipFifteen(topic);
  Close();
  {
    StatusOr<std::unique_ptr<ShardRestore>> abandoned =
        env_->OpenRestore("pages", storetest::kPartition, storetest::TestShardOptions());
    ASSERT_TRUE(abandoned.ok()) << abandoned.status().ToString();
    // Applied over and over (records are whole values: the same state) past
    // the restore's 4 MiB batches, so that they reach RocksDB's memtables.
    while ((*abandoned)->bytes() < (6u << 20)) {
      for (size_t i = first_end; i < topic.records.size(); ++i) {
        const auto& r = topic.records[i];
        ASSERT_TRUE((*abandoned)
                        ->Apply(r.key, r.value ? std::optional<std::string_view>(*r.value)
                                               : std::nullopt)
                        .ok());
      }
    }
  }  // revoked: closed without Finish()
  {
    Shard& after = OpenRestored();
    EXPECT_EQ(after.checkpointed_offset(), Offset(10));
    EXPECT_FALSE(after.LookupContent("site", DigestOf(20)).value().has_value())
        << "the abandoned restore's memtable was flushed at close";
    EXPECT_TRUE(after.LookupContent("site", DigestOf(2)).value().has_value());
  }
  ASSERT_TRUE(Restore(topic.records, first_end, topic.end()).ok());
  Shard& restored = OpenRestored();
  EXPECT_EQ(restored.checkpointed_offset(), Offset(25));
  EXPECT_TRUE(restored.LookupContent("site", DigestOf(20)).value().has_value());
}

// A restore runs on the thread that polls the group. When its writes
// outrun RocksDB's flushes (a slow disk), RocksDB stalls writers until the
// flushes catch up, seconds on end: the restore must hand the loop back
// instead, keeping what it could not write, and lose nothing.
TEST_F(ChangelogTest, ARestoreMeetingAWriteStallKeepsItsBatchInsteadOfWaiting) {
  constexpr int64_t kRecords = 20'000;  // 60,000 entries: several memtables of the env below
  FakeTopic topic;
  Shard& source = OpenOther();
  for (int64_t i = 0; i < kRecords; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(kRecords));

  // Memtables of 1 MiB in all, and no flush may run: RocksDB soon stalls.
  StateEnvOptions small = storetest::TestEnvOptions(root_ / "small");
  small.write_buffer_bytes = 1 << 20;
  std::unique_ptr<StateEnv> env = StateEnv::Create(small).value();
  std::unique_ptr<ShardRestore> restore =
      env->OpenRestore("pages", storetest::kPartition, storetest::TestShardOptions()).value();
  RestoreProbe probe(*restore);
  ASSERT_TRUE(probe.PauseBackgroundWork().ok());
  auto apply = [&](const FakeTopic::Record& r) {
    return restore->Apply(r.key,
                          r.value ? std::optional<std::string_view>(*r.value) : std::nullopt);
  };
  // The changelog over and over (applying a record again changes nothing),
  // until RocksDB has no memtable left to take a batch.
  const size_t count = topic.records.size();
  size_t applied = 0;
  while (applied < 20 * count && !restore->stalled()) {
    ASSERT_TRUE(apply(topic.records[applied++ % count]).ok());
  }
  ASSERT_TRUE(restore->stalled()) << applied << " records applied without a stall";
  ASSERT_TRUE(restore->Unstall().ok());
  EXPECT_TRUE(restore->stalled());  // the flushes are still held

  ASSERT_TRUE(probe.ContinueBackgroundWork().ok());
  for (int tries = 0; restore->stalled() && tries < 3000; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_TRUE(restore->Unstall().ok());
  }
  ASSERT_FALSE(restore->stalled());
  while (applied % count != 0) ASSERT_TRUE(apply(topic.records[applied++ % count]).ok());
  ASSERT_TRUE(restore->Finish(topic.end()).ok());
  restore.reset();

  // Every record is there, those of the batch once turned away too.
  std::unique_ptr<Shard> restored =
      env->OpenShard("pages", storetest::kPartition, storetest::TestShardOptions()).value();
  EXPECT_EQ(restored->checkpointed_offset(), Offset(kRecords));
  for (int64_t n = 0; n < kRecords; ++n) {
    ASSERT_TRUE(restored->LookupContent("site", DigestOf(n)).value().has_value()) << n;
    ASSERT_TRUE(restored->LookupUrl("site", DigestOf(1000 + n)).value().seen) << n;
  }
}

TEST_F(ChangelogTest, ResetForgetsLocalStateBeforeAFullRestore) {
  Shard& local = Open();
  WriteRecord(local, 0, Ms(1000), 500);
  ASSERT_TRUE(local.Checkpoint(Offset(1)).ok());

  FakeTopic topic;
  Shard& source = OpenOther();
  WriteRecord(source, 0, Ms(1000), 1);
  topic.Checkpoint(source, Offset(1));
  ASSERT_TRUE(Restore(topic.records, 0, topic.end(), storetest::TestShardOptions(), true).ok());
  Shard& restored = OpenRestored();
  EXPECT_FALSE(restored.LookupContent("site", DigestOf(500)).value().has_value());
  EXPECT_FALSE(restored.LookupUrl("site", DigestOf(1500)).value().seen);
  EXPECT_TRUE(restored.LookupContent("site", DigestOf(1)).value().has_value());
}

TEST_F(ChangelogTest, RecordsAfterTheLastMarkerAreRestoredButTheOffsetIsTheMarkers) {
  // A writer that died between shipping a checkpoint and committing it left
  // records after its last marker; they are entries of records that will be
  // decided again, which origins make harmless.
  FakeTopic topic;
  Shard& source = OpenOther();
  WriteRecord(source, 0, Ms(1000), 1);
  topic.Checkpoint(source, Offset(1));
  WriteRecord(source, 1, Ms(1001), 2);
  std::vector<FakeTopic::Record> shipped;
  ASSERT_TRUE(source
                  .ForEachChange(Offset(2),
                                 [&](std::string_view k, auto v) {
                                   if (ChangelogKey key = DecodeChangelogKey(k).value();
                                       !key.marker) {
                                     topic.records.push_back({std::string(k), std::string(*v)});
                                   }
                                 })
                  .ok());
  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  Shard& restored = OpenRestored();
  EXPECT_EQ(restored.checkpointed_offset(), Offset(1));
  EXPECT_EQ(restored.changelog_next(), topic.end());
}

// A stale writer's marker (a zombie's checkpoint delivered late, at least
// once) lands after a newer one: the restored checkpoint stays the newer.
TEST_F(ChangelogTest, AStaleMarkerThatLandsLastDoesNotTakeTheCheckpointBack) {
  FakeTopic topic;
  Shard& source = OpenOther();
  for (int64_t i = 0; i < 10; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(10));
  const FakeTopic::Record stale = topic.records.back();  // the marker at 10
  ASSERT_TRUE(DecodeChangelogKey(stale.key).value().marker);
  for (int64_t i = 10; i < 25; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(25));
  topic.records.push_back(stale);
  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  EXPECT_EQ(OpenRestored().checkpointed_offset(), Offset(25));

  // Nor does one that a catch-up from a later local checkpoint reads.
  Close();
  topic.records.push_back(stale);
  ASSERT_TRUE(Restore(topic.records, topic.records.size() - 1, topic.end()).ok());
  EXPECT_EQ(OpenRestored().checkpointed_offset(), Offset(25));
}

TEST_F(ChangelogTest, ExpiredEntriesGetTombstonesUnlessWrittenAgain) {
  ShardOptions options = storetest::TestShardOptions();
  options.exact_ttl = std::chrono::seconds(10);
  sync_ = true;  // every checkpoint hands its watermark to compaction at once
  TearDown();
  SetUp();
  FakeTopic topic;
  Shard* source = &Open(options);
  ShardProbe probe(*source);
  for (int64_t i = 0; i < 20; ++i) {
    ASSERT_TRUE(source->InsertContent("site", DigestOf(i), MakeOrigin(i, Ms(1000))).ok());
  }
  topic.Checkpoint(*source, Offset(20));
  EXPECT_EQ(topic.LiveKeysByFamily()[kExactCf], 20);

  // Event time moves 60 s on: all twenty expire, and digest 5 is inserted
  // again (a new entry under the same key).
  ASSERT_TRUE(source->InsertContent("site", DigestOf(5), MakeOrigin(20, Ms(61'000))).ok());
  ASSERT_TRUE(source->InsertContent("site", DigestOf(100), MakeOrigin(21, Ms(61'000))).ok());
  topic.Checkpoint(*source, Offset(22));
  ASSERT_TRUE(probe.CompactAll().ok());
  topic.Checkpoint(*source, Offset(22));  // ships the tombstones compaction collected

  EXPECT_EQ(topic.LiveKeysByFamily()[kExactCf], 2);  // digests 5 and 100
  ASSERT_TRUE(Restore(topic.Compacted(), 0, topic.end(), options, true).ok());
  Shard& restored = OpenRestored(options);
  EXPECT_TRUE(restored.LookupContent("site", DigestOf(5)).value().has_value());
  EXPECT_TRUE(restored.LookupContent("site", DigestOf(100)).value().has_value());
}

ShardOptions ShortTtls() {
  ShardOptions options = storetest::TestShardOptions();
  options.url_ttl = options.exact_ttl = options.near_ttl = std::chrono::seconds(80);
  return options;
}

TEST_F(ChangelogTest, DeadEntriesLeaveTheChangelogWithoutWaitingForCompaction) {
  // Nothing here is ever flushed or compacted (the memtables are far from
  // full), so every tombstone comes from the checkpoints' sweep.
  const ShardOptions options = ShortTtls();
  FakeTopic topic;
  Shard* source = &Open(options);
  ShardProbe probe(*source);
  for (int64_t i = 0; i < 30; ++i) WriteRecord(*source, i, Ms(500 + i * 1000), i);
  topic.Checkpoint(*source, Offset(30));
  const std::map<int, int> all = topic.LiveKeysByFamily();
  ASSERT_EQ(all.at(kUrlCf), 30);
  ASSERT_EQ(all.at(kNearCf), 30);

  // Event time reaches 100 s: records 0..19 (last seen before 20 s) are dead
  // in every store, except digest 3's, seen again at 50 s.
  ASSERT_TRUE(source->TouchContent("site", DigestOf(3), Ms(50'000)).ok());
  WriteRecord(*source, 30, Ms(100'000), 30);
  topic.Checkpoint(*source, Offset(31));

  std::map<int, int> live = topic.LiveKeysByFamily();
  EXPECT_EQ(live[kUrlCf], 11);    // 20..30
  EXPECT_EQ(live[kExactCf], 12);  // 20..30 and 3
  EXPECT_EQ(live[kNearCf], 11);
  // The local shard forgot them in the same checkpoint.
  EXPECT_EQ(probe.CountKeys(kUrlCf).value(), 11u);
  EXPECT_EQ(probe.CountKeys(kExactCf).value(), 12u);

  // A shard restored from the compacted changelog answers as the source.
  ASSERT_TRUE(Restore(topic.Compacted(), 0, topic.end(), options, true).ok());
  Shard& restored = OpenRestored(options);
  for (int64_t i = 0; i <= 30; ++i) {
    EXPECT_EQ(restored.LookupContent("site", DigestOf(i)).value().has_value(), i >= 20 || i == 3)
        << i;
    EXPECT_EQ(restored.LookupUrl("site", DigestOf(1000 + i)).value().seen, i >= 20) << i;
  }
}

TEST_F(ChangelogTest, ACheckpointSpanningMoreThanATtlShipsOnlyWhatIsStillAlive) {
  // A backfill can put hours of event time in one checkpoint: what died
  // within it is deleted and never shipped as an entry.
  const ShardOptions options = ShortTtls();
  FakeTopic topic;
  Shard* source = &Open(options);
  ShardProbe probe(*source);
  WriteRecord(*source, 0, Ms(1000), 0);
  WriteRecord(*source, 1, Ms(200'000), 1);
  topic.Checkpoint(*source, Offset(2));

  std::map<int, int> live = topic.LiveKeysByFamily();
  EXPECT_EQ(live[kUrlCf], 1);
  EXPECT_EQ(live[kExactCf], 1);
  EXPECT_EQ(live[kNearCf], 1);
  EXPECT_EQ(probe.CountKeys(kExactCf).value(), 1u);
  EXPECT_TRUE(source->LookupContent("site", DigestOf(1), {}).value().has_value());
  // Record 0's entries were never shipped with a value, only tombstoned.
  std::map<int, int> shipped;
  for (const FakeTopic::Record& r : topic.records) {
    ChangelogKey k = DecodeChangelogKey(r.key).value();
    if (k.entry() && r.value) ++shipped[k.column_family];
  }
  EXPECT_EQ(shipped, live);
}

// Content entries 0..n-1, seen at `t`, in one checkpoint's writes.
void InsertContentSeenAt(Shard& shard, int64_t n, EventTime t) {
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_TRUE(shard.InsertContent("site", DigestOf(i), MakeOrigin(i, t)).ok());
  }
}

TEST_F(ChangelogTest, TheSweepWorksInSlicesPacedByTheWritesOfEachCheckpoint) {
  const ShardOptions options = ShortTtls();
  FakeTopic topic;
  Shard* source = &Open(options);
  ShardProbe probe(*source);
  constexpr int64_t kOld = 20'000;
  InsertContentSeenAt(*source, kOld, Ms(1000));
  topic.Checkpoint(*source, Offset(kOld));

  // Each later checkpoint writes one entry, at a time when all the old ones
  // are dead: each visits a bounded slice (4096 keys plus 4 per write), not
  // the whole state, and together they cover it.
  std::vector<size_t> tombstones;
  for (int64_t i = 0; i < 6; ++i) {
    ASSERT_TRUE(
        source->InsertContent("site", DigestOf(kOld + i), MakeOrigin(kOld + i, Ms(200'000))).ok());
    const size_t before = topic.records.size();
    topic.Checkpoint(*source, Offset(kOld + i + 1));
    size_t n = 0;
    for (size_t r = before; r < topic.records.size(); ++r) n += !topic.records[r].value;
    tombstones.push_back(n);
  }
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(tombstones[i], 4096, 16) << i;
  EXPECT_EQ(topic.LiveKeysByFamily()[kExactCf], 6);
  EXPECT_EQ(probe.CountKeys(kExactCf).value(), 6u);
}

// An idle shard reads its next checkpoint's share of the sweep ahead
// (Shard::SweepAhead), so that the checkpoint, during which its partition
// decides nothing, has that much less to read; the checkpoint ships what
// the reading ahead found.
TEST_F(ChangelogTest, AnIdleShardReadsTheSweepAheadAndItsCheckpointShipsWhatWasFound) {
  const ShardOptions options = ShortTtls();
  FakeTopic topic;
  Shard* source = &Open(options);
  ShardProbe probe(*source);
  constexpr int64_t kOld = 20'000;
  InsertContentSeenAt(*source, kOld, Ms(1000));
  topic.Checkpoint(*source, Offset(kOld));
  // Event time moves on: every old entry is dead. The shard reads ahead up
  // to the last checkpoint's budget (4096 keys plus 4 per write: all 20,000).
  ASSERT_TRUE(source->InsertContent("site", DigestOf(kOld), MakeOrigin(kOld, Ms(200'000))).ok());
  ASSERT_TRUE(source->SweepAhead(100'000).ok());
  const size_t before = topic.records.size();
  topic.Checkpoint(*source, Offset(kOld + 1));
  size_t tombstones = 0;
  for (size_t r = before; r < topic.records.size(); ++r) tombstones += !topic.records[r].value;
  // Its own budget would have reached 4,100 of them.
  EXPECT_EQ(tombstones, static_cast<size_t>(kOld));
  EXPECT_EQ(probe.CountKeys(kExactCf).value(), 1u);
  EXPECT_EQ(topic.LiveKeysByFamily()[kExactCf], 1);
}

// What the reading ahead found dead is read again by the checkpoint: an
// entry written since (seen again) stays.
TEST_F(ChangelogTest, AnEntryFoundDeadAheadButSeenAgainBeforeTheCheckpointStays) {
  const ShardOptions options = ShortTtls();
  FakeTopic topic;
  Shard* source = &Open(options);
  for (int64_t i = 0; i < 30; ++i) WriteRecord(*source, i, Ms(500 + i * 1000), i);
  topic.Checkpoint(*source, Offset(30));
  WriteRecord(*source, 30, Ms(100'000), 30);  // records 0..19 are dead now
  ASSERT_TRUE(source->SweepAhead(100'000).ok());
  WriteRecord(*source, 31, Ms(100'000), 3);  // record 3's content and URL again
  topic.Checkpoint(*source, Offset(32));
  std::map<int, int> live = topic.LiveKeysByFamily();
  EXPECT_EQ(live[kUrlCf], 12);  // 20..30 and 3
  EXPECT_EQ(live[kExactCf], 12);
  EXPECT_EQ(live[kNearCf], 12);
  EXPECT_TRUE(source->LookupContent("site", DigestOf(3)).value().has_value());
}

// The sweep keeps its RocksDB iterator from step to step (a new one over the
// hash memtables copies and sorts them). Entries written again after the
// iterator was made are live however old the iterator's copy of them: the
// sweep reads each entry it finds dead again before deleting it.
TEST_F(ChangelogTest, TheSweepsIteratorOlderThanAnEntryDoesNotDeleteIt) {
  const ShardOptions options = ShortTtls();
  FakeTopic topic;
  Shard* source = &Open(options);
  ShardProbe probe(*source);
  constexpr int64_t kOld = 20'000;
  InsertContentSeenAt(*source, kOld, Ms(1000));
  topic.Checkpoint(*source, Offset(kOld));
  ASSERT_TRUE(source->SweepAhead(1).ok());  // the iterator sees the 20,000, seen at 1 s
  // 100 of them seen again at 70 s, committed; at 120 s the rest are dead.
  for (int64_t i = 0; i < kOld; i += kOld / 100) {
    ASSERT_TRUE(source->TouchContent("site", DigestOf(i), Ms(70'000)).ok());
  }
  topic.Checkpoint(*source, Offset(kOld));
  ASSERT_TRUE(source->InsertContent("site", DigestOf(kOld), MakeOrigin(kOld, Ms(120'000))).ok());
  topic.Checkpoint(*source, Offset(kOld + 1));
  // Later checkpoints walk on, through the same iterator (the memtable grew
  // by far less than a quarter), past the entries seen again.
  for (int64_t i = 1; i < 8; ++i) {
    ASSERT_TRUE(
        source->InsertContent("site", DigestOf(kOld + i), MakeOrigin(kOld + i, Ms(120'000))).ok());
    topic.Checkpoint(*source, Offset(kOld + i + 1));
  }
  EXPECT_EQ(probe.CountKeys(kExactCf).value(), 108u);
  EXPECT_EQ(topic.LiveKeysByFamily()[kExactCf], 108);
  for (int64_t i = 0; i < kOld; i += kOld / 100) {
    EXPECT_TRUE(source->LookupContent("site", DigestOf(i)).value().has_value()) << i;
  }
}

TEST_F(ChangelogTest, BloomModeShipsTheFilterPagesAndRestoresThem) {
  ShardOptions options = storetest::TestShardOptions();
  options.url_mode = UrlMode::kBloom;
  options.url_expected_items = 10'000;
  FakeTopic topic;
  Shard& source = OpenOther(options);
  for (int64_t i = 0; i < 100; ++i) {
    ASSERT_TRUE(
        source.RecordUrl("site", DigestOf(i), MakeOrigin(i, Ms(1000)), Ms(1000), DigestOf(0)).ok());
  }
  topic.Checkpoint(source, Offset(100));
  std::map<int, int> shipped = topic.LiveKeysByFamily();
  EXPECT_GT(shipped[kBloomCf], 0);
  EXPECT_EQ(shipped[kUrlCf], 0);  // bloom mode keeps no URL entries

  ASSERT_TRUE(Restore(topic.records, 0, topic.end(), options).ok());
  Shard& restored = OpenRestored(options);
  for (int64_t i = 0; i < 100; ++i)
    EXPECT_TRUE(restored.LookupUrl("site", DigestOf(i)).value().seen);
}

// In bloom mode the restored filter must answer exactly as the source's,
// for every kind: live, expired (pages older than the expiry) and absent
// URLs alike, across checkpoints that span several generations.
void ExpectRestoredFilterAnswersAsTheSource(Shard& source, Shard& restored) {
  for (int64_t i = 0; i < 20'000; ++i) {
    ASSERT_EQ(source.LookupUrl("site", DigestOf(i)).value().seen,
              restored.LookupUrl("site", DigestOf(i)).value().seen)
        << i;
  }
  EXPECT_EQ(source.Stats().bloom_false_positive_rate, restored.Stats().bloom_false_positive_rate);
}

// A URL filter of `kind` in front, small enough to seal a generation every
// few checkpoints of FillOverGenerations.
ShardOptions FilterOverGenerationsOptions(FilterKind kind) {
  ShardOptions options = storetest::TestShardOptions();
  options.url_mode = UrlMode::kBloom;
  options.url_filter = kind;
  options.url_expected_items = 5'000;
  options.url_ttl = Duration(4000);
  return options;
}

void FillOverGenerations(Shard& source, FakeTopic& topic) {
  // 4 s TTL: a generation is 572 ms (cuckoo) or 1 s (Bloom).
  for (int64_t c = 0; c < 12; ++c) {
    for (int64_t i = c * 500; i < c * 500 + 500; ++i) {
      const EventTime t = Ms(1000 + c * 700 + i % 500);
      ASSERT_TRUE(source.RecordUrl("site", DigestOf(i), MakeOrigin(i, t), t, DigestOf(0)).ok());
    }
    topic.Checkpoint(source, Offset(c + 1));
  }
}

TEST_F(ChangelogTest, RestoredCuckooFilterAnswersAsTheSource) {
  const ShardOptions options = FilterOverGenerationsOptions(FilterKind::kCuckoo);
  FakeTopic topic;
  Shard& source = OpenOther(options);
  FillOverGenerations(source, topic);
  ASSERT_TRUE(Restore(topic.records, 0, topic.end(), options).ok());
  ExpectRestoredFilterAnswersAsTheSource(source, OpenRestored(options));
}

// The fuse filter ships its key logs too: the restored one seals from them.
TEST_F(ChangelogTest, RestoredFuseFilterAnswersAsTheSource) {
  const ShardOptions options = FilterOverGenerationsOptions(FilterKind::kFuse);
  FakeTopic topic;
  Shard& source = OpenOther(options);
  FillOverGenerations(source, topic);
  ASSERT_TRUE(Restore(topic.records, 0, topic.end(), options).ok());
  Shard& restored = OpenRestored(options);
  ExpectRestoredFilterAnswersAsTheSource(source, restored);
  // One more seal each: the restored shard reads its logs back from RocksDB.
  const EventTime t = Ms(1000 + 12 * 700 + 2000);
  ASSERT_TRUE(
      source.RecordUrl("site", DigestOf(99'999), MakeOrigin(99'999, t), t, DigestOf(0)).ok());
  ASSERT_TRUE(
      restored.RecordUrl("site", DigestOf(99'999), MakeOrigin(99'999, t), t, DigestOf(0)).ok());
  ExpectRestoredFilterAnswersAsTheSource(source, restored);
}

TEST_F(ChangelogTest, RestoredBloomFilterAnswersAsTheSource) {
  const ShardOptions options = FilterOverGenerationsOptions(FilterKind::kBloom);
  FakeTopic topic;
  Shard& source = OpenOther(options);
  FillOverGenerations(source, topic);
  ASSERT_TRUE(Restore(topic.records, 0, topic.end(), options).ok());
  ExpectRestoredFilterAnswersAsTheSource(source, OpenRestored(options));
}

TEST_F(ChangelogTest, AChangelogOfAnotherFingerprintVersionIsRefused) {
  FakeTopic topic;
  Shard& source = OpenOther();
  WriteRecord(source, 0, Ms(1000), 1);
  topic.Checkpoint(source, Offset(1));
  other_.reset();
  ShardOptions v2 = storetest::TestShardOptions();
  v2.fingerprint_version = 2;
  Status s = Restore(topic.records, 0, topic.end(), v2);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("fingerprint version 1"), std::string::npos) << s.ToString();
}

// Rewrites a changelog as a build of storage format 3 wrote it: markers of
// format 3, URL values without their last write.
void MakeFormatThree(std::vector<FakeTopic::Record>* records) {
  for (FakeTopic::Record& r : *records) {
    if (!r.value) continue;
    const ChangelogKey k = DecodeChangelogKey(r.key).value();
    if (k.marker) {
      ChangelogMarker m = DecodeChangelogMarker(*r.value).value();
      m.format_version = 3;
      r.value = EncodeChangelogMarker(m);
    } else if (k.column_family == kUrlCf) {
      UrlEntry e = DecodeUrlValue(*r.value).value();
      e.last_write.reset();
      r.value = EncodeUrlValue(e);
    }
  }
}

// A changelog an older build wrote restores into a shard of this build: its
// URL entries come back without their last write.
TEST_F(ChangelogTest, AChangelogOfFormatThreeRestores) {
  FakeTopic topic;
  Shard& source = OpenOther();
  for (int64_t i = 0; i < 10; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(10));
  MakeFormatThree(&topic.records);
  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  Shard& restored = OpenRestored();
  EXPECT_EQ(restored.checkpointed_offset(), Offset(10));
  UrlLookup url = restored.LookupUrl("site", DigestOf(1003)).value();
  ASSERT_TRUE(url.entry.has_value());
  EXPECT_EQ(url.entry->origin.offset, Offset(3));
  EXPECT_EQ(url.entry->content, DigestOf(3));
  EXPECT_FALSE(url.entry->last_write.has_value());
}

TEST_F(ChangelogTest, AChangelogOfALaterFormatIsRefused) {
  FakeTopic topic;
  Shard& source = OpenOther();
  WriteRecord(source, 0, Ms(1000), 1);
  topic.Checkpoint(source, Offset(1));
  FakeTopic::Record& marker = topic.records.back();
  ChangelogMarker m = DecodeChangelogMarker(*marker.value).value();
  m.format_version = kFormatVersion + 1;
  marker.value = EncodeChangelogMarker(m);
  Status s = Restore(topic.records, 0, topic.end());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("storage format " + std::to_string(kFormatVersion + 1)),
            std::string::npos)
      << s.ToString();
}

TEST_F(ChangelogTest, ForeignRecordsAreCorruption) {
  EXPECT_EQ(DecodeChangelogKey("x").status().code(), StatusCode::kCorruption);
  EXPECT_EQ(DecodeChangelogKey(ChangelogEntryKey(kMetaCf, "identity")).status().code(),
            StatusCode::kCorruption);
  EXPECT_EQ(DecodeChangelogKey(ChangelogEntryKey(kNumCfs, "k")).status().code(),
            StatusCode::kCorruption);
  EXPECT_TRUE(DecodeChangelogKey(ChangelogEntryKey(kExactCf, "k")).ok());
  EXPECT_EQ(DecodeChangelogMarker("short").status().code(), StatusCode::kCorruption);
}

}  // namespace
}  // namespace pagesieve::store
