// StateEnv::RemoveShard never deletes a shard that is open; an open whose
// stop was requested gives up.

#include "store/state_env.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stop_token>

#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::DigestOf;
using storetest::MakeOrigin;
using storetest::MakeTempDir;
using storetest::Ms;
using storetest::TestEnvOptions;
using storetest::TestShardOptions;

// Two instances sharing a state directory each delete the shards of
// partitions they no longer own; one must not delete the shard the other
// has open (RocksDB's lock says who has it, in this process or another).
TEST(StateEnvTest, AnOpenShardIsNotRemovedAndAClosedOneIs) {
  const std::filesystem::path root = MakeTempDir();
  StatusOr<std::unique_ptr<StateEnv>> env = StateEnv::Create(TestEnvOptions(root));
  ASSERT_TRUE(env.ok()) << env.status().ToString();
  StatusOr<std::unique_ptr<Shard>> shard =
      (*env)->OpenShard("pages", PartitionId(2), TestShardOptions());
  ASSERT_TRUE(shard.ok()) << shard.status().ToString();
  const std::filesystem::path dir = root / "pages-2";
  ASSERT_TRUE(std::filesystem::is_directory(dir));

  Status open = (*env)->RemoveShard("pages", PartitionId(2));
  EXPECT_EQ(open.code(), StatusCode::kFailedPrecondition) << open.ToString();
  EXPECT_TRUE(std::filesystem::exists(dir / "CURRENT"));

  shard->reset();
  EXPECT_TRUE((*env)->RemoveShard("pages", PartitionId(2)).ok());
  EXPECT_FALSE(std::filesystem::exists(dir));
  // Nothing to remove is fine.
  EXPECT_TRUE((*env)->RemoveShard("pages", PartitionId(5)).ok());
  std::filesystem::remove_all(root);
}

// The changelog restore skips partitions with no shard on disk and an empty
// changelog; a shard that exists, even empty, must be seen.
TEST(StateEnvTest, HasShardSeesAShardOnlyOnceItIsCreated) {
  const std::filesystem::path root = MakeTempDir();
  StatusOr<std::unique_ptr<StateEnv>> env = StateEnv::Create(TestEnvOptions(root));
  ASSERT_TRUE(env.ok()) << env.status().ToString();
  EXPECT_FALSE((*env)->HasShard("pages", PartitionId(3)));
  // A directory RocksDB never created a database in holds no state.
  std::filesystem::create_directories(root / "pages-3");
  EXPECT_FALSE((*env)->HasShard("pages", PartitionId(3)));
  {
    StatusOr<std::unique_ptr<Shard>> shard =
        (*env)->OpenShard("pages", PartitionId(3), TestShardOptions());
    ASSERT_TRUE(shard.ok()) << shard.status().ToString();
  }
  EXPECT_TRUE((*env)->HasShard("pages", PartitionId(3)));
  EXPECT_FALSE((*env)->HasShard("pages", PartitionId(4)));
  EXPECT_FALSE((*env)->HasShard("../pages", PartitionId(3)));
  std::filesystem::remove_all(root);
}

// The daemon opens shards on a worker thread and gives up an open whose
// partition was revoked, or when it shuts down: the rebuild of the indexes
// must notice, rather than read millions of entries first.
TEST(StateEnvTest, AnOpenWhoseStopWasRequestedEndsAbortedAndReleasesTheShard) {
  const std::filesystem::path root = MakeTempDir();
  StatusOr<std::unique_ptr<StateEnv>> env = StateEnv::Create(TestEnvOptions(root));
  ASSERT_TRUE(env.ok()) << env.status().ToString();
  {
    std::unique_ptr<Shard> shard =
        (*env)->OpenShard("pages", PartitionId(1), TestShardOptions()).value();
    // More entries than one stretch between two looks at the token.
    for (uint64_t i = 0; i < 10'000; ++i) {
      ASSERT_TRUE(shard->InsertNear("s", DigestOf(i).Low64(), "", MakeOrigin(i, Ms(1000))).ok());
    }
    ASSERT_TRUE(shard->Checkpoint(Offset(10'000)).ok());
  }
  std::stop_source stop;
  stop.request_stop();
  StatusOr<std::unique_ptr<Shard>> stopped =
      (*env)->OpenShard("pages", PartitionId(1), TestShardOptions(), stop.get_token());
  EXPECT_EQ(stopped.status().code(), StatusCode::kAborted) << stopped.status().ToString();
  // Given up, not half open: the shard is free for the next open.
  StatusOr<std::unique_ptr<Shard>> again =
      (*env)->OpenShard("pages", PartitionId(1), TestShardOptions());
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ((*again)->checkpointed_offset(), Offset(10'000));
  again->reset();
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace pagesieve::store
