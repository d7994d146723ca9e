#pragma once

#include <memory>
#include <stop_token>
#include <string>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"
#include "store/shard.h"
#include "store/shard_options.h"

namespace pagesieve::store {

class ShardRestore;

// What every shard of a process shares: one block cache, one memtable
// budget, the WAL sync policy and the state directory. Create one per
// process and open every shard through it.
//
// Thread-safe: shards may be opened from several threads. Each shard keeps
// the shared resources alive, so the env may go before its shards do.
class StateEnv {
 public:
  static StatusOr<std::unique_ptr<StateEnv>> Create(const StateEnvOptions& options);
  ~StateEnv();
  StateEnv(const StateEnv&) = delete;
  StateEnv& operator=(const StateEnv&) = delete;

  // Opens, creating it when missing, the shard of one input partition in
  // <dir>/<topic>-<partition>/. Fails with FailedPrecondition when another
  // process (or this one) holds it, or when it was written under another
  // fingerprint version or SimHash table layout; the message says how to
  // reset it. Opening reads every live entry to rebuild the in-memory
  // indexes (seconds per million entries); a stop requested through `stop`
  // ends it early with Aborted, so an open on another thread can be given
  // up (a revoked partition, a shutdown) without waiting for it.
  StatusOr<std::unique_ptr<Shard>> OpenShard(std::string_view topic, PartitionId partition,
                                             const ShardOptions& options,
                                             std::stop_token stop = {});
  // The same for an explicit directory.
  StatusOr<std::unique_ptr<Shard>> OpenShardAt(const std::string& dir, const ShardOptions& options,
                                               std::stop_token stop = {});

  // Opens the shard of a partition, creating it when missing, to restore it
  // from a changelog (shard_restore.h). Fails like OpenShard.
  StatusOr<std::unique_ptr<ShardRestore>> OpenRestore(std::string_view topic, PartitionId partition,
                                                      const ShardOptions& options);
  // Whether the partition has a shard on disk (one RocksDB created). The
  // restore of a partition new to this instance whose changelog is empty
  // asks first, and opens nothing: the shard's own open follows anyway.
  bool HasShard(std::string_view topic, PartitionId partition) const;
  // Deletes the shard of a partition from disk; nothing when it has none.
  // A shard open in this process or another one (its RocksDB lock is held)
  // is not deleted: FailedPrecondition.
  Status RemoveShard(std::string_view topic, PartitionId partition);

  const StateEnvOptions& options() const;

  struct Resources;  // RocksDB objects; see rocks_options.h

 private:
  explicit StateEnv(std::shared_ptr<Resources> resources);
  // <dir>/<topic>-<partition>, with <dir> created when missing.
  StatusOr<std::string> CreateShardPath(std::string_view topic, PartitionId partition) const;
  std::shared_ptr<Resources> resources_;
};

// "<topic>-<partition>". Refuses a topic that is not a plain directory name
// (Kafka topic names are [a-zA-Z0-9._-]; "." and ".." are refused too).
StatusOr<std::string> ShardDirName(std::string_view topic, PartitionId partition);

}  // namespace pagesieve::store
