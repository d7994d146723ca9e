#pragma once

// A fixture for tests of the routed stages: engine options from a TOML
// snippet, a Decider, the near plan, and RocksDB shards in a temporary
// directory (tmpfs when there is one).

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "config/config.h"
#include "engine/decider.h"
#include "engine/engine_options.h"
#include "routing/near_plan.h"
#include "store/state_env.h"

namespace pagesieve::routing::testing {

class OwnerFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::filesystem::path base = std::filesystem::is_directory("/dev/shm")
                                           ? std::filesystem::path("/dev/shm")
                                           : std::filesystem::temp_directory_path();
    dir_ = base / ("sieve-routed-" + std::to_string(std::random_device()()));
    std::filesystem::create_directories(dir_);
    StatusOr<Config> config = Config::FromToml(ConfigToml(), "test");
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    StatusOr<engine::EngineOptions> options = engine::EngineOptionsFromConfig(*config);
    ASSERT_TRUE(options.ok()) << options.status().ToString();
    options_ = *options;
    // A handful of URLs per shard: the default sizing (10 M) costs a large
    // Bloom allocation per shard.
    options_.shard.url_expected_items = 10'000;
    store::StateEnvOptions env;
    env.dir = dir_.string();
    env.block_cache_bytes = 8 << 20;
    env.write_buffer_bytes = 8 << 20;
    env.sync = false;
    env_ = std::move(store::StateEnv::Create(env)).value();
    decider_ = std::make_unique<engine::Decider>(options_.decider);
    StatusOr<NearPlan> plan = NearPlan::ForShard(options_.shard);
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    plan_ = std::make_unique<NearPlan>(std::move(plan).value());
  }

  void TearDown() override {
    env_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  virtual std::string ConfigToml() const { return "[scope]\nkey = \"global\"\n"; }

  std::unique_ptr<store::Shard> OpenShard(const std::string& name) {
    StatusOr<std::unique_ptr<store::Shard>> shard =
        env_->OpenShardAt((dir_ / name).string(), options_.shard);
    EXPECT_TRUE(shard.ok()) << shard.status().ToString();
    return shard.ok() ? std::move(shard).value() : nullptr;
  }

  std::filesystem::path dir_;
  engine::EngineOptions options_;
  std::unique_ptr<store::StateEnv> env_;
  std::unique_ptr<engine::Decider> decider_;
  std::unique_ptr<NearPlan> plan_;
};

}  // namespace pagesieve::routing::testing
