#pragma once

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/write_buffer_manager.h>

#include <memory>
#include <vector>

#include "store/expired_keys.h"
#include "store/expiry.h"
#include "store/shard_options.h"
#include "store/simhash_tables.h"
#include "store/state_env.h"

namespace pagesieve::store {

// The RocksDB objects all shards of a process share.
struct StateEnv::Resources {
  StateEnvOptions options;
  std::shared_ptr<rocksdb::Cache> block_cache;
  std::shared_ptr<rocksdb::WriteBufferManager> write_buffers;
};

rocksdb::DBOptions MakeDbOptions(const StateEnv::Resources& resources);

// One descriptor per Cf, in Cf order (see docs/state-store.md for the why
// of each setting). Compaction reports the keys it expires to `expired`
// when that is set.
std::vector<rocksdb::ColumnFamilyDescriptor> MakeColumnFamilies(
    const StateEnv::Resources& resources, const ShardOptions& options,
    const std::shared_ptr<const DurableWatermark>& watermark,
    const std::shared_ptr<ExpiredKeys>& expired = nullptr);

}  // namespace pagesieve::store
