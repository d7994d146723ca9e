#include "store/shard_db.h"

#include <rocksdb/listener.h>
#include <rocksdb/write_batch.h>

#include <atomic>
#include <filesystem>
#include <system_error>

namespace pagesieve::store {
namespace {

rocksdb::Slice ToSlice(std::string_view s) { return rocksdb::Slice(s.data(), s.size()); }

// RocksDB reports a held LOCK file as an IO error whose text names the lock.
bool IsLockError(const rocksdb::Status& s) {
  return s.IsIOError() && s.ToString().find("lock") != std::string::npos;
}

// Opens the database in `dir`, creating it and its column families when
// missing. RocksDB's own creation of missing column families (in DB::Open)
// takes them one at a time and writes, then parses back, its whole OPTIONS
// file after each: most of a new shard's open. Created together they cost
// one such write. A crash in between leaves a database with only the
// default column family, whose next open creates the rest the usual way.
rocksdb::Status OpenDb(const rocksdb::DBOptions& db_options, const std::string& dir,
                       const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
                       std::vector<rocksdb::ColumnFamilyHandle*>* handles, rocksdb::DB** db) {
  std::error_code ec;
  const bool fresh = !std::filesystem::exists(dir + "/CURRENT", ec) && families.size() > 1 &&
                     families.front().name == rocksdb::kDefaultColumnFamilyName;
  if (!fresh) return rocksdb::DB::Open(db_options, dir, families, handles, db);
  rocksdb::Status s = rocksdb::DB::Open(db_options, dir, {families.front()}, handles, db);
  if (!s.ok()) return s;
  std::vector<rocksdb::ColumnFamilyHandle*> created;
  s = (*db)->CreateColumnFamilies({families.begin() + 1, families.end()}, &created);
  handles->insert(handles->end(), created.begin(), created.end());
  if (s.ok()) return s;
  for (rocksdb::ColumnFamilyHandle* h : *handles) {
    (*db)->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  }
  handles->clear();
  (*db)->Close().PermitUncheckedError();
  delete *db;
  *db = nullptr;
  return s;
}

}  // namespace

// Counts the memtables RocksDB seals, by column family name. Called on a
// writing thread (the shard's, or a flush's), read on the shard's.
class ShardDb::SealCounter : public rocksdb::EventListener {
 public:
  void OnMemTableSealed(const rocksdb::MemTableInfo& info) override {
    for (int cf = 0; cf < kNumCfs; ++cf) {
      if (info.cf_name == CfName(static_cast<Cf>(cf))) sealed_[cf].fetch_add(1);
    }
  }
  uint64_t sealed(Cf cf) const { return sealed_[cf].load(); }

 private:
  std::array<std::atomic<uint64_t>, kNumCfs> sealed_{};
};

uint64_t ShardDb::memtables_sealed(Cf cf) const { return seals_ ? seals_->sealed(cf) : 0; }

const char* CfName(Cf cf) {
  // The metadata lives in RocksDB's default column family, which always exists.
  static constexpr const char* kNames[kNumCfs] = {"default", "url", "exact", "near", "bloom"};
  return kNames[cf];
}

Status FromRocks(const rocksdb::Status& s, std::string_view context) {
  if (s.ok()) return Status::Ok();
  const std::string msg = std::string(context) + ": " + s.ToString();
  if (s.IsCorruption()) return Status::Corruption(msg);
  if (s.IsInvalidArgument() || s.IsNotSupported()) return Status::InvalidArgument(msg);
  if (s.IsBusy() || s.IsTryAgain() || s.IsTimedOut()) return Status::Unavailable(msg);
  if (s.IsNoSpace() || s.IsMemoryLimit()) return Status::ResourceExhausted(msg);
  if (s.IsShutdownInProgress() || s.IsAborted()) return Status::Aborted(msg);
  if (s.IsIOError()) return Status::IoError(msg);
  return Status::Internal(msg);
}

StatusOr<std::unique_ptr<ShardDb>> ShardDb::Open(
    const std::string& dir, const rocksdb::DBOptions& db_options,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& families, bool sync) {
  std::unique_ptr<ShardDb> shard_db(new ShardDb());  // private constructor
  shard_db->dir_ = dir;
  shard_db->sync_ = sync;
  shard_db->seals_ = std::make_shared<SealCounter>();
  rocksdb::DBOptions options = db_options;
  options.listeners.push_back(shard_db->seals_);
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = OpenDb(options, dir, families, &shard_db->handles_, &raw);
  if (IsLockError(s)) {
    return Status::FailedPrecondition("shard " + dir +
                                      " is in use: another process (or this one) has it open (" +
                                      s.ToString() + ")");
  }
  if (s.IsInvalidArgument() &&
      s.ToString().find("Column families not opened") != std::string::npos) {
    // A shard of an older storage format (format 1 had near_tables).
    return Status::FailedPrecondition(
        "shard " + dir + " was written by another storage format of pagesieve (" + s.ToString() +
        "): delete the shard's directory (it is rebuilt from the input or the changelog) or run "
        "the build that wrote it");
  }
  PS_RETURN_IF_ERROR(FromRocks(s, "cannot open shard " + dir));
  shard_db->db_.reset(raw);
  return shard_db;
}

ShardDb::~ShardDb() {
  scratch_.Reset();  // it may pin a block of a cache that closes with the DB
  if (!db_) return;
  for (rocksdb::ColumnFamilyHandle* h : handles_) {
    db_->DestroyColumnFamilyHandle(h).PermitUncheckedError();
  }
  db_->Close().PermitUncheckedError();  // a failed close loses nothing committed
}

Status ShardDb::Get(Cf cf, std::string_view key, std::string_view* value, bool* found) {
  const Overlay& overlay = overlay_[cf];
  if (!overlay.empty()) {
    auto it = overlay.find(key);
    if (it != overlay.end()) {
      *value = it->second;
      *found = true;
      return Status::Ok();
    }
  }
  if (!deletes_[cf].empty() && deletes_[cf].contains(key)) {
    *found = false;
    *value = {};
    return Status::Ok();
  }
  LastRead& last = last_read_[cf];
  if (!last.valid || last.key != key) PS_RETURN_IF_ERROR(ReadDb(cf, key, &last));
  *found = last.found;
  *value = last.value;
  return Status::Ok();
}

Status ShardDb::ReadDb(Cf cf, std::string_view key, LastRead* out) {
  out->valid = false;
  scratch_.Reset();
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), handles_[cf], ToSlice(key), &scratch_);
  if (s.IsNotFound()) {
    out->found = false;
    out->value.clear();
  } else {
    PS_RETURN_IF_ERROR(FromRocks(s, "shard " + dir_ + ": read"));
    out->found = true;
    out->value.assign(scratch_.data(), scratch_.size());
  }
  out->key.assign(key);
  out->valid = true;
  return Status::Ok();
}

void ShardDb::Put(Cf cf, std::string_view key, std::string value) {
  if (!deletes_[cf].empty()) {
    if (auto it = deletes_[cf].find(key); it != deletes_[cf].end()) deletes_[cf].erase(it);
  }
  Overlay& overlay = overlay_[cf];
  auto it = overlay.find(key);
  if (it != overlay.end()) {
    it->second = std::move(value);
  } else {
    overlay.emplace(std::string(key), std::move(value));
  }
}

void ShardDb::Delete(Cf cf, std::string_view key) {
  if (auto it = overlay_[cf].find(key); it != overlay_[cf].end()) overlay_[cf].erase(it);
  deletes_[cf].emplace(key);
  last_read_[cf].valid = false;
}

bool ShardDb::IsPending(Cf cf, std::string_view key) const {
  return overlay_[cf].contains(key) || deletes_[cf].contains(key);
}

Status ShardDb::Commit() {
  size_t bytes = 64;
  for (const Overlay& overlay : overlay_) {
    for (const auto& [key, value] : overlay) bytes += key.size() + value.size() + 16;
  }
  for (const auto& deletes : deletes_) {
    for (const std::string& key : deletes) bytes += key.size() + 8;
  }
  rocksdb::WriteBatch batch(bytes);  // one allocation instead of a string growing in steps
  static const std::string kAfterEveryKey(32, '\xff');  // keys of cleared families are shorter
  for (int cf = 0; cf < kNumCfs; ++cf) {
    if (clear_[cf]) {
      PS_RETURN_IF_ERROR(FromRocks(batch.DeleteRange(handles_[cf], "", kAfterEveryKey),
                                   "shard " + dir_ + ": batch"));
    }
  }
  for (int cf = 0; cf < kNumCfs; ++cf) {
    for (const std::string& key : deletes_[cf]) {
      PS_RETURN_IF_ERROR(
          FromRocks(batch.Delete(handles_[cf], ToSlice(key)), "shard " + dir_ + ": batch"));
    }
  }
  for (int cf = 0; cf < kNumCfs; ++cf) {
    for (const auto& [key, value] : overlay_[cf]) {
      PS_RETURN_IF_ERROR(FromRocks(batch.Put(handles_[cf], ToSlice(key), ToSlice(value)),
                                   "shard " + dir_ + ": batch"));
    }
  }
  rocksdb::WriteOptions options;
  options.sync = sync_;
  PS_RETURN_IF_ERROR(FromRocks(db_->Write(options, &batch), "shard " + dir_ + ": checkpoint"));
  for (Overlay& overlay : overlay_) overlay.clear();
  for (auto& deletes : deletes_) deletes.clear();
  clear_.fill(false);
  for (LastRead& last : last_read_) last.valid = false;
  return Status::Ok();
}

void ShardDb::ForEachPending(
    const std::function<void(Cf cf, std::string_view key, std::string_view value)>& fn) const {
  for (int cf = 0; cf < kNumCfs; ++cf) {
    for (const auto& [key, value] : overlay_[cf]) fn(static_cast<Cf>(cf), key, value);
  }
}

void ShardDb::ForEachPendingDelete(
    const std::function<void(Cf cf, std::string_view key)>& fn) const {
  for (int cf = 0; cf < kNumCfs; ++cf) {
    for (const std::string& key : deletes_[cf]) {
      if (!overlay_[cf].contains(key)) fn(static_cast<Cf>(cf), key);
    }
  }
}

Status ShardDb::SyncWal() { return FromRocks(db_->SyncWAL(), "shard " + dir_ + ": WAL sync"); }

size_t ShardDb::pending_writes() const {
  size_t n = 0;
  for (const Overlay& overlay : overlay_) n += overlay.size();
  for (const auto& deletes : deletes_) n += deletes.size();
  return n;
}

}  // namespace pagesieve::store
