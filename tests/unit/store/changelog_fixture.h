// A fake changelog topic partition and a fixture that ships shards to it
// and restores them from it, as the daemon does (docs/changelog.md).
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/changelog.h"
#include "store/shard_restore.h"
#include "store/testing/synthetic_records.h"
#include "store_test_util.h"

namespace pagesieve::store::storetest {

// A changelog topic partition: records appended in order, and what Kafka's
// log compaction leaves of them (the latest record per key, tombstones gone).
struct FakeTopic {
  struct Record {
    std::string key;
    std::optional<std::string> value;
  };
  std::vector<Record> records;

  // Ships a checkpoint of `shard` at `next_offset` and takes it, the way
  // the daemon does: the records first, then the local checkpoint with the
  // changelog position after them.
  void Checkpoint(Shard& shard, Offset next_offset) {
    Status s = shard.ForEachChange(next_offset, [&](std::string_view k, auto v) {
      records.push_back({std::string(k), v ? std::optional<std::string>(std::string(*v))
                                           : std::optional<std::string>()});
    });
    ASSERT_TRUE(s.ok()) << s.ToString();
    shard.SetChangelogNext(end());
    ASSERT_TRUE(shard.Checkpoint(next_offset).ok());
  }

  Offset end() const { return Offset(static_cast<int64_t>(records.size())); }

  std::vector<Record> Compacted() const {
    std::map<std::string, size_t> latest;
    for (size_t i = 0; i < records.size(); ++i) latest[records[i].key] = i;
    std::vector<Record> out;
    for (size_t i = 0; i < records.size(); ++i) {
      if (latest[records[i].key] == i && records[i].value) out.push_back(records[i]);
    }
    return out;
  }

  // Live keys after compaction, by kind of entry (column family).
  std::map<int, int> LiveKeysByFamily() const {
    std::map<int, int> n;
    for (const Record& r : Compacted()) {
      ChangelogKey k = DecodeChangelogKey(r.key).value();
      if (k.entry()) ++n[k.column_family];
    }
    return n;
  }
};

class ChangelogTest : public ShardTest {
 protected:
  // Restores records [from, end) of `records` into the shard directory of
  // this test (closed), as the daemon does on assignment.
  Status Restore(const std::vector<FakeTopic::Record>& records, size_t from, Offset changelog_end,
                 const ShardOptions& options = TestShardOptions(), bool reset = false) {
    Close();
    PS_ASSIGN_OR_RETURN(std::unique_ptr<ShardRestore> restore,
                        env_->OpenRestore("pages", kPartition, options));
    if (reset) PS_RETURN_IF_ERROR(restore->Reset());
    for (size_t i = from; i < records.size(); ++i) {
      const auto& r = records[i];
      PS_RETURN_IF_ERROR(restore->Apply(
          r.key, r.value ? std::optional<std::string_view>(*r.value) : std::nullopt));
    }
    return restore->Finish(changelog_end);
  }

  // Ten records shipped from another instance's shard and restored here,
  // then fifteen more shipped only: returns the changelog position the
  // restored shard stands at, where a catch-up starts.
  size_t RestoreTenThenShipFifteen(FakeTopic& topic);

  // The test's second shard: another instance's copy of the partition.
  Shard& OpenOther(const ShardOptions& options = TestShardOptions()) {
    other_.reset();
    other_ = env_->OpenShard("other", kPartition, options).value();
    return *other_;
  }

  // The restored shard, opened where Restore() wrote it.
  Shard& OpenRestored(const ShardOptions& options = TestShardOptions()) {
    shard_ = env_->OpenShard("pages", kPartition, options).value();
    return *shard_;
  }

  void TearDown() override {
    other_.reset();
    ShardTest::TearDown();
  }

  std::unique_ptr<Shard> other_;
};

inline void WriteRecord(Shard& shard, int64_t offset, EventTime t, uint64_t n) {
  const Origin origin = MakeOrigin(offset, t);
  ASSERT_TRUE(shard.RecordUrl("site", DigestOf(1000 + n), origin, t, DigestOf(n)).ok());
  ASSERT_TRUE(shard.InsertContent("site", DigestOf(n), origin).ok());
  ASSERT_TRUE(shard
                  .InsertNear("site", 0x9e3779b97f4a7c15ULL * (n + 1),
                              testing::MakeSyntheticSketch(n), origin)
                  .ok());
}

inline size_t ChangelogTest::RestoreTenThenShipFifteen(FakeTopic& topic) {
  Shard& source = OpenOther();
  for (int64_t i = 0; i < 10; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(10));
  EXPECT_TRUE(Restore(topic.records, 0, topic.end()).ok());
  const size_t first_end = topic.records.size();
  for (int64_t i = 10; i < 25; ++i) WriteRecord(source, i, Ms(1000 + i), i);
  topic.Checkpoint(source, Offset(25));
  return first_end;
}

}  // namespace pagesieve::store::storetest
