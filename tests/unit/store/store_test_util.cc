#include "store_test_util.h"

#include <stdlib.h>

#include <vector>

namespace pagesieve::store::storetest {

std::filesystem::path MakeTempDir() {
  // tmpfs when there is one: RocksDB fsyncs a dozen files per open, which
  // costs far more than the tests themselves on a loaded disk, and a killed
  // process (the crash test) leaves tmpfs exactly as it leaves a disk.
  std::error_code ec;
  const std::filesystem::path base = std::filesystem::is_directory("/dev/shm", ec)
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
  std::string pattern = (base / "pagesieve-store-XXXXXX").string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  const char* made = mkdtemp(buf.data());
  EXPECT_NE(made, nullptr);
  return made ? std::filesystem::path(made) : std::filesystem::path();
}

ShardOptions TestShardOptions() {
  ShardOptions o;
  o.fingerprint_version = 1;
  o.url_expected_items = 10'000;
  return o;
}

StateEnvOptions TestEnvOptions(const std::filesystem::path& dir, bool sync) {
  StateEnvOptions o;
  o.dir = dir.string();
  o.block_cache_bytes = 8 << 20;
  o.write_buffer_bytes = 8 << 20;
  o.sync = sync;
  o.background_threads = 1;
  return o;
}

Origin MakeOrigin(int64_t offset, EventTime t, PartitionId partition) {
  Origin o;
  o.event_id = "event-" + std::to_string(partition.value()) + "-" + std::to_string(offset);
  o.url = "https://example.com/page/" + std::to_string(offset);
  o.event_time = t;
  o.partition = partition;
  o.offset = Offset(offset);
  return o;
}

Digest128 DigestOf(uint64_t n) {
  std::mt19937_64 rng(n * 0x9e3779b97f4a7c15ull + 1);
  Digest128 d;
  for (size_t i = 0; i < 16; i += 8) {
    const uint64_t v = rng();
    for (size_t j = 0; j < 8; ++j) d.bytes[i + j] = static_cast<uint8_t>(v >> (8 * j));
  }
  return d;
}

void ShardTest::SetUp() {
  root_ = MakeTempDir();
  shard_dir_ = (root_ / "pages-3").string();
  StatusOr<std::unique_ptr<StateEnv>> env = StateEnv::Create(TestEnvOptions(root_, sync_));
  ASSERT_TRUE(env.ok()) << env.status().ToString();
  env_ = std::move(env).value();
}

void ShardTest::TearDown() {
  shard_.reset();
  env_.reset();
  std::error_code ec;
  std::filesystem::remove_all(root_, ec);
}

StatusOr<std::unique_ptr<Shard>> ShardTest::TryOpen(const ShardOptions& options) {
  return env_->OpenShardAt(shard_dir_, options);
}

Shard& ShardTest::Open(const ShardOptions& options) {
  shard_.reset();
  // value() aborts with the status printed when the open failed: every test
  // after it would be meaningless.
  shard_ = TryOpen(options).value();
  return *shard_;
}

}  // namespace pagesieve::store::storetest
