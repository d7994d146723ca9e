// A routed owner's held messages (Shard::PutHeld, docs/global-routing.md,
// "Durable owner state"): durable with the checkpoint and only then, carried
// by the changelog (writes and deletes, and whole when the changelog is
// seeded), forgotten by a reset, and never expired.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "changelog_fixture.h"
#include "store/changelog.h"
#include "store/shard_db.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::FakeTopic;
using storetest::Ms;

using Held = std::map<std::string, std::string>;

Held HeldOf(Shard& shard) {
  Held out;
  Status s = shard.ForEachHeld(
      [&](std::string_view key, std::string_view value) { out.emplace(key, value); });
  EXPECT_TRUE(s.ok()) << s.ToString();
  return out;
}

class HeldTest : public storetest::ChangelogTest {};

TEST_F(HeldTest, HeldMessagesAreDurableWithTheCheckpointAndNotBefore) {
  Shard& shard = Open();
  shard.PutHeld("a", "record a");
  shard.PutHeld("b", "record b");
  ASSERT_TRUE(shard.Checkpoint(Offset(2)).ok());
  shard.PutHeld("c", "record c");
  shard.DeleteHeld("a");
  shard.PutHeld("b", "record b, answered");
  // Before the checkpoint the shard shows its writes...
  EXPECT_EQ(HeldOf(shard), (Held{{"b", "record b, answered"}, {"c", "record c"}}));

  // ...and a crash loses them all.
  Shard& reopened = Open();
  EXPECT_EQ(HeldOf(reopened), (Held{{"a", "record a"}, {"b", "record b"}}));

  reopened.DeleteHeld("a");
  reopened.PutHeld("c", "record c");
  ASSERT_TRUE(reopened.Checkpoint(Offset(3)).ok());
  EXPECT_EQ(HeldOf(Open()), (Held{{"b", "record b"}, {"c", "record c"}}));
}

TEST_F(HeldTest, ExpiryNeverRemovesAHeldMessage) {
  Shard& shard = Open();
  shard.ObserveEventTime(Ms(1000));
  shard.PutHeld("waiting", "a record of long ago");
  ASSERT_TRUE(shard.Checkpoint(Offset(1)).ok());
  // Far past every TTL, with a changelog asking for sweeps.
  shard.ObserveEventTime(Ms(1000) + std::chrono::hours(24 * 365));
  FakeTopic topic;
  topic.Checkpoint(shard, Offset(2));
  topic.Checkpoint(shard, Offset(3));
  EXPECT_EQ(HeldOf(Open()), (Held{{"waiting", "a record of long ago"}}));
}

TEST_F(HeldTest, TheChangelogCarriesHeldMessagesAndTheirDeletes) {
  FakeTopic topic;
  Shard& source = OpenOther();
  source.PutHeld("a", "record a");
  source.PutHeld("b", "record b");
  topic.Checkpoint(source, Offset(2));
  source.DeleteHeld("a");
  source.PutHeld("c", "record c");
  source.PutHeld("d", "in and out between two checkpoints");
  source.DeleteHeld("d");
  topic.Checkpoint(source, Offset(5));
  const Held want{{"b", "record b"}, {"c", "record c"}};
  ASSERT_EQ(HeldOf(source), want);

  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  EXPECT_EQ(HeldOf(OpenRestored()), want);
  Close();
  // What log compaction leaves restores the same.
  ASSERT_TRUE(Restore(topic.Compacted(), 0, topic.end(), storetest::TestShardOptions(),
                      /*reset=*/true)
                  .ok());
  EXPECT_EQ(HeldOf(OpenRestored()), want);
}

TEST_F(HeldTest, ASeededChangelogCarriesTheHeldMessagesStoredBefore) {
  // Checkpointed without a changelog: the first one ships it whole.
  Shard& kept = OpenOther();
  kept.PutHeld("a", "record a");
  ASSERT_TRUE(kept.Checkpoint(Offset(1)).ok());
  ASSERT_TRUE(kept.ships_snapshot());
  FakeTopic topic;
  kept.PutHeld("b", "record b");
  topic.Checkpoint(kept, Offset(2));

  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  EXPECT_EQ(HeldOf(OpenRestored()), (Held{{"a", "record a"}, {"b", "record b"}}));
}

TEST_F(HeldTest, AResetForgetsTheLocalHeldMessages) {
  Shard& local = Open();
  local.PutHeld("stale", "of a checkpoint the group moved past");
  ASSERT_TRUE(local.Checkpoint(Offset(1)).ok());

  FakeTopic topic;
  Shard& source = OpenOther();
  source.PutHeld("current", "record");
  topic.Checkpoint(source, Offset(1));
  ASSERT_TRUE(
      Restore(topic.records, 0, topic.end(), storetest::TestShardOptions(), /*reset=*/true).ok());
  EXPECT_EQ(HeldOf(OpenRestored()), (Held{{"current", "record"}}));
}

TEST_F(HeldTest, TheChangelogCarriesTheExpiryHold) {
  FakeTopic topic;
  Shard& source = OpenOther();
  ASSERT_TRUE(source.InsertContent("s", storetest::DigestOf(1),
                                   storetest::MakeOrigin(1, Ms(1000)))
                  .ok());
  source.ObserveEventTime(Ms(1000) + std::chrono::hours(24 * 365));  // dead at the watermark
  source.HoldExpiry(Ms(1500));                                          // live at the hold
  topic.Checkpoint(source, Offset(1));

  ASSERT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  Shard& restored = OpenRestored();
  restored.SetReadPoint(Ms(1500));
  EXPECT_TRUE(restored.LookupContent("s", storetest::DigestOf(1)).value().has_value());
  restored.SetReadPoint(std::nullopt);

  // Let go: the changelog says so too.
  source.HoldExpiry(std::nullopt);
  topic.Checkpoint(source, Offset(2));
  ASSERT_TRUE(topic.records.size() >= 2);
  bool tombstone = false;
  for (const FakeTopic::Record& r : topic.records) {
    tombstone |= r.key == ChangelogEntryKey(kMetaCf, "expiry_hold") && !r.value;
  }
  EXPECT_TRUE(tombstone);
}

TEST_F(HeldTest, OnlyHeldKeysAndTheHoldOfTheMetadataMayComeFromTheChangelog) {
  EXPECT_TRUE(DecodeChangelogKey(ChangelogEntryKey(kMetaCf, "held/x")).ok());
  EXPECT_TRUE(DecodeChangelogKey(ChangelogEntryKey(kMetaCf, "expiry_hold")).ok());
  EXPECT_FALSE(DecodeChangelogKey(ChangelogEntryKey(kMetaCf, "identity")).ok());
  EXPECT_FALSE(DecodeChangelogKey(ChangelogEntryKey(kMetaCf, "next_offset")).ok());
}

}  // namespace
}  // namespace pagesieve::store
