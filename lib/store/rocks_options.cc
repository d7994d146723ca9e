#include "store/rocks_options.h"

#include <rocksdb/filter_policy.h>
#include <rocksdb/memtablerep.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>

#include "store/expiry_filter.h"
#include "store/keys.h"
#include "store/near_store.h"

namespace pagesieve::store {
namespace {

constexpr double kFilterBitsPerKey = 10;  // ~1% false positives per SST probe
constexpr uint64_t kEntryBuffer = 64ull << 20;

rocksdb::BlockBasedTableOptions TableOptions(const StateEnv::Resources& r, bool filter,
                                             bool whole_key) {
  rocksdb::BlockBasedTableOptions t;
  t.block_cache = r.block_cache;
  // Index and filter blocks count against the shared cache, so memory stays
  // bounded by it however many shards a process opens.
  t.cache_index_and_filter_blocks = true;
  t.cache_index_and_filter_blocks_with_high_priority = true;
  t.pin_l0_filter_and_index_blocks_in_cache = true;
  t.format_version = 5;
  if (filter) t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(kFilterBitsPerKey));
  t.whole_key_filtering = whole_key;
  return t;
}

rocksdb::ColumnFamilyOptions Base(const StateEnv::Resources& r, bool filter, bool whole_key) {
  rocksdb::ColumnFamilyOptions o;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(TableOptions(r, filter, whole_key)));
  o.compression = rocksdb::kLZ4Compression;
  o.bottommost_compression = rocksdb::kZSTD;
  o.level_compaction_dynamic_level_bytes = true;
  return o;
}

// Every key of a store is looked up or scanned by a fixed-length prefix (the
// whole key for point lookups, the probe prefix for SimHash tables), so the
// memtable is a hash of prefixes: inserts and lookups touch one short bucket
// instead of descending a skiplist, three times fewer CPU cycles per key
// measured (docs/state-store.md). The bucket array is charged to the write
// buffer budget even while the memtable is empty, so buckets are few: one
// per `bytes_per_bucket` of memtable, a handful of entries each when full.
void HashMemtable(rocksdb::ColumnFamilyOptions* o, size_t prefix, size_t bytes_per_bucket) {
  o->prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(prefix));
  o->memtable_factory.reset(rocksdb::NewHashLinkListRepFactory(kEntryBuffer / bytes_per_bucket));
  o->memtable_prefix_bloom_size_ratio = 0.02;
}

// An entry store: point lookups, most of them misses, so whole-key Bloom
// filters in every SST and in the memtable (the prefix is the whole key).
rocksdb::ColumnFamilyOptions EntryCf(const StateEnv::Resources& r, size_t key_size, Duration ttl,
                                     const std::shared_ptr<const DurableWatermark>& wm,
                                     const std::shared_ptr<ExpiredKeys>& expired, Cf cf) {
  rocksdb::ColumnFamilyOptions o = Base(r, true, true);
  o.write_buffer_size = kEntryBuffer;
  HashMemtable(&o, key_size, 2048);
  o.compaction_filter_factory = NewExpiryFilterFactory(wm, ttl, CfName(cf), expired, cf);
  // Reclaim expired entries even where nothing else triggers a compaction.
  o.periodic_compaction_seconds = 24 * 3600;
  return o;
}

}  // namespace

rocksdb::DBOptions MakeDbOptions(const StateEnv::Resources& r) {
  rocksdb::DBOptions o;
  o.create_if_missing = true;
  o.create_missing_column_families = true;
  o.write_buffer_manager = r.write_buffers;
  // Hash memtables take one writer at a time, which is all a shard has.
  o.allow_concurrent_memtable_write = false;
  // Every flush covers the same batches in all column families, so even a
  // lost WAL could only cost whole checkpoints (docs/state-store.md).
  o.atomic_flush = true;
  o.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  o.max_background_jobs = r.options.background_threads;
  o.max_total_wal_size = 256ull << 20;
  o.keep_log_file_num = 3;
  o.max_log_file_size = 8ull << 20;
  o.stats_dump_period_sec = 0;
  o.stats_persist_period_sec = 0;
  o.max_file_opening_threads = 1;
  return o;
}

std::vector<rocksdb::ColumnFamilyDescriptor> MakeColumnFamilies(
    const StateEnv::Resources& r, const ShardOptions& s,
    const std::shared_ptr<const DurableWatermark>& wm,
    const std::shared_ptr<ExpiredKeys>& expired) {
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs(kNumCfs);
  rocksdb::ColumnFamilyOptions small = Base(r, false, false);
  small.write_buffer_size = 4ull << 20;
  cfs[kMetaCf] = {CfName(kMetaCf), small};
  cfs[kUrlCf] = {CfName(kUrlCf), EntryCf(r, kDigestKeySize, s.url_ttl, wm, expired, kUrlCf)};
  cfs[kExactCf] = {CfName(kExactCf),
                   EntryCf(r, kDigestKeySize, s.exact_ttl, wm, expired, kExactCf)};
  cfs[kNearCf] = {CfName(kNearCf), EntryCf(r, kSimHashKeySize, s.near_ttl, wm, expired, kNearCf)};
  // Bloom pages are written at every checkpoint (a thousand per thousand
  // records) and only read back, by a full scan, when the shard opens: an
  // unsorted vector takes them at a fraction of a skiplist's cost and is
  // sorted once, at flush.
  rocksdb::ColumnFamilyOptions pages = small;
  pages.memtable_factory.reset(new rocksdb::VectorRepFactory());
  cfs[kBloomCf] = {CfName(kBloomCf), pages};
  return cfs;
}

}  // namespace pagesieve::store
