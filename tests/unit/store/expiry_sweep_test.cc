// ExpirySweep over a bare ShardDb: which keys a step gives after reading
// ahead. (The checkpoint's use of it, shipping tombstones, is in
// changelog_test.cc.)

#include "store/expiry_sweep.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "store/codec.h"
#include "store/shard_db.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::MakeOrigin;
using storetest::Ms;

constexpr Duration kTtl = std::chrono::seconds(10);

class ExpirySweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = storetest::MakeTempDir();
    std::vector<rocksdb::ColumnFamilyDescriptor> families;
    for (int cf = 0; cf < kNumCfs; ++cf) {
      families.emplace_back(CfName(static_cast<Cf>(cf)), rocksdb::ColumnFamilyOptions());
    }
    rocksdb::DBOptions options;
    options.create_if_missing = true;
    db_ = ShardDb::Open(dir_.string(), options, families, /*sync=*/false).value();
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  // `n` content entries last seen at `t`, committed.
  void StoreContentSeenAt(int n, EventTime t) {
    for (int i = 0; i < n; ++i) {
      db_->Put(kExactCf, "key-" + std::to_string(i),
               EncodeContentValue(ContentEntry{MakeOrigin(i, t), t}));
    }
    ASSERT_TRUE(db_->Commit().ok());
  }

  // How often each key a step gives comes.
  std::map<std::string, int> StepGives(ExpirySweep& sweep, EventTime watermark, uint64_t budget) {
    std::map<std::string, int> given;
    EXPECT_TRUE(sweep
                    .Step(db_.get(), watermark, budget,
                          [&](Cf, std::string_view key) { ++given[std::string(key)]; })
                    .ok());
    return given;
  }

  std::filesystem::path dir_;
  std::unique_ptr<ShardDb> db_;
};

// A shard larger than a walk ahead: the walks go up to the last step's
// budget, and the step walks the rest of its own.
TEST_F(ExpirySweepTest, WalksAheadStopAtTheLastBudgetAndTheStepWalksTheRest) {
  StoreContentSeenAt(1000, Ms(1000));
  ExpirySweep sweep({{kExactCf, kTtl}});
  EXPECT_TRUE(StepGives(sweep, Ms(1000), 300).empty());
  const EventTime later = Ms(1000) + kTtl + std::chrono::seconds(1);
  for (int idle = 0; idle < 10; ++idle) ASSERT_TRUE(sweep.WalkAhead(db_.get(), later, 100).ok());
  const std::map<std::string, int> given = StepGives(sweep, later, 500);
  EXPECT_EQ(given.size(), 500u);
  for (const auto& [key, times] : given) EXPECT_EQ(times, 1) << key;
}

}  // namespace
}  // namespace pagesieve::store
