#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "common/digest.h"
#include "common/types.h"
#include "store/origin.h"
#include "store/shard.h"
#include "store/shard_options.h"
#include "store/state_env.h"

namespace pagesieve::store::storetest {

// A fresh directory per test, removed afterwards.
std::filesystem::path MakeTempDir();

inline constexpr PartitionId kPartition{3};

// Options for tests: defaults with a fingerprint version.
ShardOptions TestShardOptions();
// Small shared resources; sync off unless asked (kill -9 loses nothing
// either way, and fsync makes tests slow).
StateEnvOptions TestEnvOptions(const std::filesystem::path& dir, bool sync = false);

// The origin of the record at `offset`, fetched at `t`.
Origin MakeOrigin(int64_t offset, EventTime t, PartitionId partition = kPartition);

// A digest whose bytes derive from `n` (distinct n, distinct digests).
Digest128 DigestOf(uint64_t n);

inline EventTime Ms(int64_t ms) { return EventTimeFromMillis(ms); }

// `fp` with `bits` distinct random bits flipped: a SimHash that many bits
// away.
inline uint64_t FlipBits(uint64_t fp, int bits, std::mt19937_64& rng) {
  uint64_t mask = 0;
  while (std::popcount(mask) < bits) mask |= uint64_t{1} << (rng() % 64);
  return fp ^ mask;
}

// A test with a state directory, an env and helpers to (re)open one shard.
class ShardTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Opens (or reopens, closing the previous one) the test shard.
  Shard& Open(const ShardOptions& options = TestShardOptions());
  StatusOr<std::unique_ptr<Shard>> TryOpen(const ShardOptions& options = TestShardOptions());
  void Close() { shard_.reset(); }

  std::filesystem::path root_;
  std::string shard_dir_;
  std::unique_ptr<StateEnv> env_;
  std::unique_ptr<Shard> shard_;
  bool sync_ = false;
};

}  // namespace pagesieve::store::storetest
