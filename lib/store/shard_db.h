#pragma once

#include <rocksdb/db.h>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::store {

// The column families of a shard, in the order they are opened.
enum Cf : int { kMetaCf, kUrlCf, kExactCf, kNearCf, kBloomCf, kNumCfs };
const char* CfName(Cf cf);

// A shard's RocksDB instance with an overlay of the writes made since the
// last commit.
//
// Writes go to the overlay only; Commit() writes the whole overlay as one
// WriteBatch and clears it. Reads look in the overlay first, then in the
// database, which therefore always holds exactly the last commit: a crash
// can only lose whole batches. (Why an overlay rather than RocksDB's
// WriteBatchWithIndex: docs/state-store.md.)
//
// Not thread-safe (one per shard, used by one thread at a time).
class ShardDb {
 public:
  // Opens `dir` with one descriptor per Cf, in Cf order.
  static StatusOr<std::unique_ptr<ShardDb>> Open(
      const std::string& dir, const rocksdb::DBOptions& db_options,
      const std::vector<rocksdb::ColumnFamilyDescriptor>& families, bool sync);
  // Opens an existing shard for reading only (shard_db_read_only.cc): no
  // LOCK taken and nothing written, so a running pagesieve may hold the
  // shard. It shows the last checkpoint as of the call; Commit() fails.
  // `families` holds one descriptor per Cf, in Cf order; empty opens the
  // metadata alone, with plain options (enough to read the identity).
  static StatusOr<std::unique_ptr<ShardDb>> OpenReadOnly(
      const std::string& dir, std::vector<rocksdb::ColumnFamilyDescriptor> families = {});
  ~ShardDb();
  ShardDb(const ShardDb&) = delete;
  ShardDb& operator=(const ShardDb&) = delete;

  // The value of `key`: the overlay's when it has one, else the database's.
  // `*value` is valid until the next call on this object.
  Status Get(Cf cf, std::string_view key, std::string_view* value, bool* found);
  void Put(Cf cf, std::string_view key, std::string value);
  // Deletes `key` in the next commit (before that commit's writes, so a Put
  // of the same key wins). Until then Get no longer finds it.
  void Delete(Cf cf, std::string_view key);
  // Whether the next commit writes or deletes `key`.
  bool IsPending(Cf cf, std::string_view key) const;
  // Deletes every stored key of `cf` in the next commit, before its writes.
  void ClearOnCommit(Cf cf) { clear_[cf] = true; }
  // Calls `fn` with every overlay entry (what the next commit writes), in no
  // particular order.
  void ForEachPending(
      const std::function<void(Cf cf, std::string_view key, std::string_view value)>& fn) const;

  // Calls `fn` with every key the next commit deletes and does not write
  // again, in no particular order.
  void ForEachPendingDelete(const std::function<void(Cf cf, std::string_view key)>& fn) const;

  // Writes every overlay entry in one atomic WriteBatch (synced when asked)
  // and clears the overlay. On failure the overlay is kept.
  Status Commit();
  // Forces the WAL to disk (the writes of earlier commits).
  Status SyncWal();

  size_t pending_writes() const;
  // How many memtables of `cf` RocksDB has sealed (switched for a new one)
  // since the open: an iterator made before the last seal keeps the sealed
  // memtable alive, flushed or not.
  uint64_t memtables_sealed(Cf cf) const;
  rocksdb::DB* db() { return db_.get(); }
  rocksdb::ColumnFamilyHandle* handle(Cf cf) { return handles_[cf]; }
  const std::string& dir() const { return dir_; }

 private:
  struct StringHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  using Overlay = std::unordered_map<std::string, std::string, StringHash, std::equal_to<>>;
  // The last database read of a column family: a record looks a key up and
  // then writes it, and the database does not change in between.
  struct LastRead {
    bool valid = false;
    bool found = false;
    std::string key;
    std::string value;
  };

  class SealCounter;

  ShardDb() = default;
  Status ReadDb(Cf cf, std::string_view key, LastRead* out);

  std::string dir_;
  bool sync_ = false;
  std::shared_ptr<SealCounter> seals_;  // a listener of the database
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  std::array<Overlay, kNumCfs> overlay_;
  std::array<std::unordered_set<std::string, StringHash, std::equal_to<>>, kNumCfs> deletes_;
  std::array<bool, kNumCfs> clear_{};
  std::array<LastRead, kNumCfs> last_read_;
  rocksdb::PinnableSlice scratch_;
};

// A RocksDB status as ours, with `context` in front of the message.
Status FromRocks(const rocksdb::Status& s, std::string_view context);

}  // namespace pagesieve::store
