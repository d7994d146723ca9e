#include "store/shard_snapshot.h"

#include <memory>

namespace pagesieve::store {

Status ForEachStoredEntry(ShardDb* db, const std::vector<Cf>& families,
                          const std::function<bool(Cf cf, std::string_view value)>& is_dead,
                          const ChangeFn& fn) {
  rocksdb::ReadOptions options;
  options.total_order_seek = true;  // across prefixes, ignoring the prefix extractor
  options.fill_cache = false;
  for (Cf cf : families) {
    std::unique_ptr<rocksdb::Iterator> it(db->db()->NewIterator(options, db->handle(cf)));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view key(it->key().data(), it->key().size());
      const std::string_view value(it->value().data(), it->value().size());
      if (db->IsPending(cf, key) || is_dead(cf, value)) continue;
      fn(ChangelogEntryKey(cf, key), value);
    }
    PS_RETURN_IF_ERROR(FromRocks(it->status(), "shard " + db->dir() + ": snapshot"));
  }
  return Status::Ok();
}

Status ForEachStoredInRange(ShardDb* db, Cf cf, std::string_view begin, std::string_view end,
                            const std::function<void(std::string_view key,
                                                     std::string_view value)>& fn) {
  rocksdb::ReadOptions options;
  options.total_order_seek = true;
  options.fill_cache = false;
  const rocksdb::Slice upper(end.data(), end.size());
  options.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(db->db()->NewIterator(options, db->handle(cf)));
  for (it->Seek(rocksdb::Slice(begin.data(), begin.size())); it->Valid(); it->Next()) {
    const std::string_view key(it->key().data(), it->key().size());
    if (db->IsPending(cf, key)) continue;
    fn(key, std::string_view(it->value().data(), it->value().size()));
  }
  return FromRocks(it->status(), "shard " + db->dir() + ": read");
}

StatusOr<bool> WalkStored(ShardDb* db, const std::vector<StoredRange>& ranges,
                          const std::function<bool(Cf cf, std::string_view value)>& is_dead,
                          size_t max_keys, SnapshotCursor* cursor,
                          const std::function<void(Cf cf, std::string_view key,
                                                   std::string_view value)>& fn) {
  size_t visited = 0;
  while (cursor->range < ranges.size()) {
    const StoredRange& range = ranges[cursor->range];
    rocksdb::ReadOptions options;
    options.total_order_seek = true;
    options.fill_cache = false;
    const rocksdb::Slice upper(range.end.data(), range.end.size());
    if (!range.end.empty()) options.iterate_upper_bound = &upper;
    std::unique_ptr<rocksdb::Iterator> it(db->db()->NewIterator(options, db->handle(range.cf)));
    const std::string& from = cursor->visited ? cursor->after : range.begin;
    it->Seek(rocksdb::Slice(from.data(), from.size()));
    // Resuming: the last key visited was given (or passed over) already.
    if (cursor->visited && it->Valid() && it->key() == rocksdb::Slice(from)) it->Next();
    for (; it->Valid(); it->Next()) {
      if (visited == max_keys) return false;
      ++visited;
      const std::string_view key(it->key().data(), it->key().size());
      const std::string_view value(it->value().data(), it->value().size());
      cursor->after.assign(key);
      cursor->visited = true;
      if (db->IsPending(range.cf, key) || (range.skip_dead && is_dead(range.cf, value))) continue;
      fn(range.cf, key, value);
    }
    PS_RETURN_IF_ERROR(FromRocks(it->status(), "shard " + db->dir() + ": snapshot"));
    ++cursor->range;
    cursor->after.clear();
    cursor->visited = false;
  }
  return true;
}

}  // namespace pagesieve::store
