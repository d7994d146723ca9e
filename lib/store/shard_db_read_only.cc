// ShardDb::OpenReadOnly: a shard opened for inspection (pagesieve state).
#include <rocksdb/cache.h>
#include <rocksdb/env.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <cstdarg>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "store/shard_db.h"

namespace pagesieve::store {
namespace {

// RocksDB writes its info log into the database directory unless given a
// logger; an inspection must leave a live shard's directory untouched.
class DiscardLogger final : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char* /*format*/, va_list /*ap*/) override {}
};

// A small block cache for all column families: an inspection reads a few
// keys, or scans once.
constexpr size_t kReadOnlyCacheBytes = 8u << 20;

rocksdb::DBOptions ReadOnlyDbOptions() {
  rocksdb::DBOptions o;
  o.info_log = std::make_shared<DiscardLogger>();
  // Open every SST file now. A running pagesieve may delete files its
  // compactions replaced; open descriptors keep them readable, so the view
  // stays that of the moment of opening.
  o.max_open_files = -1;
  // A writer may be appending to the WAL: stop at its last complete batch.
  o.wal_recovery_mode = rocksdb::WALRecoveryMode::kPointInTimeRecovery;
  // The writer's hash memtables (which replay the WAL ten times faster than
  // skiplists, see OpenReadOnly's callers) take one writer at a time.
  o.allow_concurrent_memtable_write = false;
  return o;
}

// Plain options suffice to read the metadata: the default comparator, no
// prefix extractor.
rocksdb::ColumnFamilyOptions PlainCfOptions() {
  rocksdb::BlockBasedTableOptions table;
  table.block_cache = rocksdb::NewLRUCache(kReadOnlyCacheBytes);
  rocksdb::ColumnFamilyOptions o;
  o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return o;
}

// A running pagesieve records each new version of its files (after a flush
// or a compaction) in the MANIFEST, then deletes the files the version no
// longer needs: WAL files whose writes are now in an SST, replaced SSTs. An
// open that read the MANIFEST before such an edit but lists the WAL files
// after it misses the writes of the deleted WAL without any error (the
// tests caught it: a checkpoint without the shard's identity), or fails to
// find a deleted SST. So an open counts only when CURRENT and the size of
// its MANIFEST were the same before and after it: no edit, no deletion.
constexpr int kOpenAttempts = 10;

std::string ManifestStamp(const std::string& dir) {
  std::ifstream current(dir + "/CURRENT");
  std::string manifest;
  std::getline(current, manifest);
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(dir + "/" + manifest, ec);
  return manifest + "/" + (ec ? ec.message() : std::to_string(size));
}

bool RemovedUnderneath(const rocksdb::Status& s) {
  return s.ToString().find("No such file or directory") != std::string::npos;
}

// NotFound without a database, FailedPrecondition without our families.
Status CheckShardFamilies(const std::string& dir) {
  std::vector<std::string> names;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(ReadOnlyDbOptions(), dir, &names);
  if (!s.ok()) {
    return Status::NotFound("no shard at " + dir + " (no RocksDB database: " + s.ToString() + ")");
  }
  for (int cf = 0; cf < kNumCfs; ++cf) {
    const std::string name = CfName(static_cast<Cf>(cf));
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      return Status::FailedPrecondition("not a pagesieve shard: " + dir +
                                        " has no column family '" + name + "'");
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::unique_ptr<ShardDb>> ShardDb::OpenReadOnly(
    const std::string& dir, std::vector<rocksdb::ColumnFamilyDescriptor> families) {
  PS_RETURN_IF_ERROR(CheckShardFamilies(dir));
  if (families.empty()) {
    // Read-only RocksDB may open a subset of the column families; the WAL
    // records of the others are skipped.
    families.emplace_back(CfName(kMetaCf), PlainCfOptions());
  } else if (families.size() != static_cast<size_t>(kNumCfs)) {
    return Status::Internal("OpenReadOnly: one column family descriptor per Cf");
  }
  const rocksdb::DBOptions db_options = ReadOnlyDbOptions();
  rocksdb::Status s;
  for (int attempt = 1; attempt <= kOpenAttempts; ++attempt) {
    const std::string before = ManifestStamp(dir);
    std::unique_ptr<ShardDb> shard_db(new ShardDb());  // private constructor
    shard_db->dir_ = dir;
    rocksdb::DB* raw = nullptr;
    s = rocksdb::DB::OpenForReadOnly(db_options, dir, families, &shard_db->handles_, &raw,
                                     /*error_if_wal_file_exists=*/false);
    if (s.ok()) {
      shard_db->db_.reset(raw);
      if (ManifestStamp(dir) == before) return shard_db;
      continue;  // the writer changed its files meanwhile: the view may miss some
    }
    if (!RemovedUnderneath(s)) break;
  }
  if (s.ok()) {
    return Status::Unavailable("shard " + dir + " kept changing while it was opened (" +
                               std::to_string(kOpenAttempts) + " attempts); try again");
  }
  return FromRocks(s, "cannot open shard " + dir + " for reading");
}

}  // namespace pagesieve::store
