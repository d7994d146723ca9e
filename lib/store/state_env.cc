#include "store/state_env.h"

#include <rocksdb/env.h>

#include <filesystem>
#include <system_error>

#include "store/rocks_options.h"
#include "store/rocks_shard.h"
#include "store/shard_restore.h"

namespace pagesieve::store {

StatusOr<std::unique_ptr<StateEnv>> StateEnv::Create(const StateEnvOptions& options) {
  if (options.dir.empty()) return Status::InvalidArgument("config key 'state.dir' is empty");
  if (options.background_threads < 1) {
    return Status::InvalidArgument("config key 'state.background_threads' must be at least 1");
  }
  auto r = std::make_shared<Resources>();
  r->options = options;
  r->block_cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  r->write_buffers = std::make_shared<rocksdb::WriteBufferManager>(options.write_buffer_bytes);
  // RocksDB's thread pools are per process, like this object.
  rocksdb::Env* env = rocksdb::Env::Default();
  env->SetBackgroundThreads(options.background_threads, rocksdb::Env::LOW);
  env->SetBackgroundThreads(1, rocksdb::Env::HIGH);
  return std::unique_ptr<StateEnv>(new StateEnv(std::move(r)));
}

StateEnv::StateEnv(std::shared_ptr<Resources> resources) : resources_(std::move(resources)) {}
StateEnv::~StateEnv() = default;

const StateEnvOptions& StateEnv::options() const { return resources_->options; }

StatusOr<std::string> StateEnv::CreateShardPath(std::string_view topic,
                                                PartitionId partition) const {
  PS_ASSIGN_OR_RETURN(std::string name, ShardDirName(topic, partition));
  std::error_code ec;
  std::filesystem::create_directories(resources_->options.dir, ec);
  if (ec) {
    return Status::IoError("cannot create state directory " + resources_->options.dir + ": " +
                           ec.message());
  }
  return resources_->options.dir + "/" + name;
}

StatusOr<std::unique_ptr<Shard>> StateEnv::OpenShard(std::string_view topic, PartitionId partition,
                                                     const ShardOptions& options,
                                                     std::stop_token stop) {
  PS_ASSIGN_OR_RETURN(std::string path, CreateShardPath(topic, partition));
  return OpenShardAt(path, options, std::move(stop));
}

StatusOr<std::unique_ptr<Shard>> StateEnv::OpenShardAt(const std::string& dir,
                                                       const ShardOptions& options,
                                                       std::stop_token stop) {
  return RocksShard::Open(resources_, dir, options, std::move(stop));
}

StatusOr<std::unique_ptr<ShardRestore>> StateEnv::OpenRestore(std::string_view topic,
                                                              PartitionId partition,
                                                              const ShardOptions& options) {
  PS_ASSIGN_OR_RETURN(std::string path, CreateShardPath(topic, partition));
  return ShardRestore::Open(resources_, path, options);
}

bool StateEnv::HasShard(std::string_view topic, PartitionId partition) const {
  StatusOr<std::string> name = ShardDirName(topic, partition);
  if (!name.ok()) return false;
  // CURRENT names the manifest: RocksDB writes it last when it creates a
  // database, so a directory without it holds no state.
  std::error_code ec;
  return std::filesystem::exists(resources_->options.dir + "/" + *name + "/CURRENT", ec);
}

Status StateEnv::RemoveShard(std::string_view topic, PartitionId partition) {
  PS_ASSIGN_OR_RETURN(std::string name, ShardDirName(topic, partition));
  const std::string dir = resources_->options.dir + "/" + name;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return Status::Ok();
  // RocksDB holds a lock on the shard's LOCK file while the shard is open,
  // here or in another instance sharing the state directory. Taking it too
  // means a shard is never deleted under its owner; held, it is left alone.
  rocksdb::Env* env = rocksdb::Env::Default();
  rocksdb::FileLock* lock = nullptr;
  const rocksdb::Status locked = env->LockFile(dir + "/LOCK", &lock);
  if (!locked.ok()) {
    return Status::FailedPrecondition("shard " + name + " is open (" + locked.ToString() +
                               "): not deleted");
  }
  std::filesystem::remove_all(dir, ec);
  env->UnlockFile(lock).PermitUncheckedError();
  if (ec) return Status::IoError("cannot remove shard " + name + ": " + ec.message());
  return Status::Ok();
}

StatusOr<std::string> ShardDirName(std::string_view topic, PartitionId partition) {
  bool plain = !topic.empty() && topic != "." && topic != ".." && topic.size() <= 249;
  for (char c : topic) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    plain = plain && ok;
  }
  if (!plain) {
    return Status::InvalidArgument("topic name '" + std::string(topic) +
                                   "' cannot name a shard directory (allowed: a-z A-Z 0-9 . _ -)");
  }
  if (partition.value() < 0) {
    return Status::InvalidArgument("negative partition " + std::to_string(partition.value()));
  }
  return std::string(topic) + "-" + std::to_string(partition.value());
}

}  // namespace pagesieve::store
