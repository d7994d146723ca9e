#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>

#include "store/codec.h"
#include "store/shard_db.h"
#include "store/shard_meta.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::DigestOf;
using storetest::MakeOrigin;
using storetest::Ms;

class ShardLifecycleTest : public storetest::ShardTest {};

// Opens the closed shard at `dir` with plain RocksDB and calls `fn` with it
// and its column family handles by name, to write what an older build wrote.
using Families = std::map<std::string, rocksdb::ColumnFamilyHandle*>;
void WithRawDb(const std::string& dir, const std::function<void(rocksdb::DB*, Families)>& fn) {
  rocksdb::Options options;
  std::vector<std::string> families;
  ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(options, dir, &families).ok());
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : families) descriptors.emplace_back(name, options);
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, dir, descriptors, &handles, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  Families by_name;
  for (size_t i = 0; i < handles.size(); ++i) by_name[families[i]] = handles[i];
  fn(db.get(), by_name);
  for (rocksdb::ColumnFamilyHandle* h : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
}

// The identity value: format, fingerprint version 1, distance 3, 4 blocks.
std::string IdentityOfFormat(uint64_t format) {
  std::string identity;
  for (uint64_t v : {format, uint64_t{1}, uint64_t{3}, uint64_t{4}}) PutFixed64(&identity, v);
  return identity;
}

int64_t StoredFormat(const std::string& dir) {
  std::unique_ptr<ShardDb> db = ShardDb::OpenReadOnly(dir).value();
  return ReadIdentity(db.get()).value()->format_version;
}

TEST_F(ShardLifecycleTest, NewShardStartsAtTheEpochWithoutOffset) {
  Open();
  EXPECT_EQ(shard_->watermark(), Ms(0));
  EXPECT_FALSE(shard_->checkpointed_offset().has_value());
}

TEST_F(ShardLifecycleTest, WatermarkOnlyRises) {
  Open();
  shard_->ObserveEventTime(Ms(5000));
  shard_->ObserveEventTime(Ms(3000));
  EXPECT_EQ(shard_->watermark(), Ms(5000));
}

TEST_F(ShardLifecycleTest, CheckpointPersistsStateWatermarkAndOffset) {
  Open();
  shard_->ObserveEventTime(Ms(5000));
  ASSERT_TRUE(shard_->InsertContent("s", DigestOf(1), MakeOrigin(7, Ms(5000))).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(8)).ok());
  EXPECT_EQ(shard_->checkpointed_offset(), Offset(8));
  Open();
  EXPECT_EQ(shard_->checkpointed_offset(), Offset(8));
  EXPECT_EQ(shard_->watermark(), Ms(5000));
  EXPECT_TRUE(shard_->LookupContent("s", DigestOf(1)).value().has_value());
}

TEST_F(ShardLifecycleTest, WritesAfterTheLastCheckpointAreGoneAfterReopen) {
  Open();
  ASSERT_TRUE(shard_->InsertContent("s", DigestOf(1), MakeOrigin(7, Ms(5000))).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(8)).ok());
  shard_->ObserveEventTime(Ms(9000));
  ASSERT_TRUE(shard_->InsertContent("s", DigestOf(2), MakeOrigin(8, Ms(9000))).ok());
  ASSERT_TRUE(shard_->InsertNear("s", 99, {}, MakeOrigin(8, Ms(9000))).ok());
  ASSERT_TRUE(
      shard_->RecordUrl("s", DigestOf(3), MakeOrigin(8, Ms(9000)), Ms(9000), DigestOf(2)).ok());
  Open();
  EXPECT_EQ(shard_->checkpointed_offset(), Offset(8));
  EXPECT_EQ(shard_->watermark(), Ms(5000));  // observed by the checkpointed insert
  EXPECT_TRUE(shard_->LookupContent("s", DigestOf(1)).value().has_value());
  EXPECT_FALSE(shard_->LookupContent("s", DigestOf(2)).value().has_value());
  EXPECT_TRUE(shard_->FindNear("s", {99, 3, {}}).value().empty());
  EXPECT_FALSE(shard_->LookupUrl("s", DigestOf(3)).value().seen);
}

TEST_F(ShardLifecycleTest, OtherFingerprintVersionIsRefusedWithResetAdvice) {
  Open();
  Close();
  ShardOptions o = storetest::TestShardOptions();
  o.fingerprint_version = 2;
  StatusOr<std::unique_ptr<Shard>> shard = TryOpen(o);
  ASSERT_FALSE(shard.ok());
  EXPECT_EQ(shard.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(shard.status().message().find("fingerprint version 1"), std::string::npos);
  EXPECT_NE(shard.status().message().find("deleting the directory " + shard_dir_),
            std::string::npos);
}

TEST_F(ShardLifecycleTest, OtherSimHashLayoutIsRefused) {
  Open();
  Close();
  ShardOptions o = storetest::TestShardOptions();
  o.near_max_distance = 4;
  StatusOr<std::unique_ptr<Shard>> shard = TryOpen(o);
  ASSERT_FALSE(shard.ok());
  EXPECT_EQ(shard.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(shard.status().message().find("near.max_distance"), std::string::npos);
}

// Storage format 1 kept the SimHash tables in a near_tables column family:
// such a shard is refused with advice, not opened with the family ignored.
std::vector<std::string> ColumnFamiliesOf(const std::string& dir) {
  std::vector<std::string> families;
  EXPECT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::Options(), dir, &families).ok());
  std::sort(families.begin(), families.end());
  return families;
}

// A new shard creates its column families together (shard_db.cc, OpenDb),
// not one at a time inside RocksDB's open.
TEST_F(ShardLifecycleTest, ANewShardHasEveryColumnFamily) {
  Open();
  Close();
  EXPECT_EQ(ColumnFamiliesOf(shard_dir_),
            (std::vector<std::string>{"bloom", "default", "exact", "near", "url"}));
}

// A crash between creating the database and its column families leaves one
// with only the default column family: it opens as a shard all the same.
TEST_F(ShardLifecycleTest, ADatabaseWithOnlyTheDefaultColumnFamilyOpensAsAShard) {
  {
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, shard_dir_, &raw).ok());
    delete raw;
  }
  Open();
  Close();
  EXPECT_EQ(ColumnFamiliesOf(shard_dir_),
            (std::vector<std::string>{"bloom", "default", "exact", "near", "url"}));
}

TEST_F(ShardLifecycleTest, ShardOfTheFormatWithTableKeysIsRefusedWithResetAdvice) {
  Open();
  Close();
  {
    rocksdb::Options options;
    rocksdb::DB* raw = nullptr;
    std::vector<std::string> families;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(options, shard_dir_, &families).ok());
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const std::string& name : families) descriptors.emplace_back(name, options);
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    ASSERT_TRUE(rocksdb::DB::Open(options, shard_dir_, descriptors, &handles, &raw).ok());
    std::unique_ptr<rocksdb::DB> db(raw);
    rocksdb::ColumnFamilyHandle* tables = nullptr;
    ASSERT_TRUE(db->CreateColumnFamily(options, "near_tables", &tables).ok());
    handles.push_back(tables);
    for (rocksdb::ColumnFamilyHandle* h : handles)
      ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  }
  StatusOr<std::unique_ptr<Shard>> shard = TryOpen();
  ASSERT_FALSE(shard.ok());
  EXPECT_EQ(shard.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(shard.status().message().find("another storage format"), std::string::npos);
  EXPECT_NE(shard.status().message().find("delete the shard's directory"), std::string::npos);
}

// A shard of storage format 2 (near entries without sketches, written by
// the build before MinHash) is refused with reset advice naming both formats.
TEST_F(ShardLifecycleTest, ShardOfFormatTwoIsRefusedWithResetAdvice) {
  Open();
  Close();
  WithRawDb(shard_dir_, [](rocksdb::DB* db, Families) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "identity", IdentityOfFormat(2)).ok());
  });
  StatusOr<std::unique_ptr<Shard>> shard = TryOpen();
  ASSERT_FALSE(shard.ok());
  EXPECT_EQ(shard.status().code(), StatusCode::kFailedPrecondition);
  const std::string& message = shard.status().message();
  EXPECT_NE(message.find("uses storage format 2, this build reads formats 3 to 6"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("deleting the directory " + shard_dir_), std::string::npos);
  EXPECT_NE(message.find("or run the pagesieve build that wrote it"), std::string::npos);
}

// A later build's shard is refused too: its values may not decode here.
TEST_F(ShardLifecycleTest, ShardOfALaterFormatIsRefused) {
  Open();
  Close();
  WithRawDb(shard_dir_, [](rocksdb::DB* db, Families) {
    ASSERT_TRUE(
        db->Put(rocksdb::WriteOptions(), "identity", IdentityOfFormat(kFormatVersion + 1)).ok());
  });
  StatusOr<std::unique_ptr<Shard>> shard = TryOpen();
  ASSERT_FALSE(shard.ok());
  EXPECT_EQ(shard.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(shard.status().message().find("uses storage format " +
                                          std::to_string(kFormatVersion + 1)),
            std::string::npos);
}

// A shard of format 3 (URL entries without their last write) opens and
// reads as it was, and is marked format 4, so that a format-3 build, which
// would take this build's URL values for corrupt ones, refuses it.
TEST_F(ShardLifecycleTest, ShardOfFormatThreeOpensAndIsMarkedFormatFour) {
  Open();
  ASSERT_TRUE(
      shard_->RecordUrl("s", DigestOf(1), MakeOrigin(7, Ms(5000)), Ms(5000), DigestOf(2)).ok());
  ASSERT_TRUE(shard_->Checkpoint(Offset(8)).ok());
  Close();
  WithRawDb(shard_dir_, [](rocksdb::DB* db, Families cf) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "identity", IdentityOfFormat(3)).ok());
    std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), cf["url"]));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      UrlEntry entry = DecodeUrlValue(it->value().ToString()).value();
      entry.last_write.reset();  // the format-3 layout
      ASSERT_TRUE(
          db->Put(rocksdb::WriteOptions(), cf["url"], it->key(), EncodeUrlValue(entry)).ok());
    }
  });
  ASSERT_EQ(StoredFormat(shard_dir_), 3);
  Open();
  UrlLookup url = shard_->LookupUrl("s", DigestOf(1)).value();
  ASSERT_TRUE(url.entry.has_value());
  EXPECT_EQ(url.entry->origin, MakeOrigin(7, Ms(5000)));
  EXPECT_EQ(url.entry->content, DigestOf(2));
  EXPECT_FALSE(url.entry->last_write.has_value());
  Close();
  EXPECT_EQ(StoredFormat(shard_dir_), kFormatVersion);
}

TEST_F(ShardLifecycleTest, MissingFingerprintVersionIsRefused) {
  ShardOptions o = storetest::TestShardOptions();
  o.fingerprint_version = 0;
  EXPECT_EQ(TryOpen(o).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(ShardLifecycleTest, SecondOpenOfAnOpenShardFailsClearly) {
  Open();
  StatusOr<std::unique_ptr<Shard>> second = TryOpen();
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(second.status().message().find("in use"), std::string::npos);
  // The first is unharmed.
  EXPECT_TRUE(shard_->InsertContent("s", DigestOf(1), MakeOrigin(1, Ms(1))).ok());
  EXPECT_TRUE(shard_->Checkpoint(Offset(2)).ok());
}

TEST_F(ShardLifecycleTest, OpenShardUsesTopicAndPartitionDirectory) {
  StatusOr<std::unique_ptr<Shard>> shard =
      env_->OpenShard("crawl.pages", PartitionId(7), storetest::TestShardOptions());
  ASSERT_TRUE(shard.ok()) << shard.status().ToString();
  EXPECT_TRUE(std::filesystem::is_directory(root_ / "crawl.pages-7"));
}

TEST_F(ShardLifecycleTest, TopicsThatAreNotDirectoryNamesAreRefused) {
  for (const char* topic : {"", ".", "..", "../etc", "a/b", "a b"}) {
    EXPECT_FALSE(ShardDirName(topic, PartitionId(0)).ok()) << topic;
  }
  EXPECT_FALSE(ShardDirName("pages", PartitionId(-1)).ok());
  EXPECT_EQ(ShardDirName("pages", PartitionId(12)).value(), "pages-12");
}

TEST_F(ShardLifecycleTest, StatsReportCheckpointAndLayout) {
  Open();
  ASSERT_TRUE(shard_->InsertNear("s", 1, {}, MakeOrigin(1, Ms(1))).ok());
  ShardStats before = shard_->Stats();
  EXPECT_GT(before.pending_writes, 0u);
  EXPECT_EQ(before.near_tables, 4);  // derived for distance 3
  EXPECT_EQ(before.fingerprint_version, 1);
  ASSERT_TRUE(shard_->Checkpoint(Offset(2)).ok());
  ShardStats after = shard_->Stats();
  EXPECT_EQ(after.pending_writes, 0u);
  EXPECT_EQ(after.checkpointed_offset, Offset(2));
  EXPECT_GE(after.near_entries, 1u);
}

}  // namespace
}  // namespace pagesieve::store
