// StateEnv::RemoveShard never deletes a shard that is open.

#include "store/state_env.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::MakeTempDir;
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

}  // namespace
}  // namespace pagesieve::store
