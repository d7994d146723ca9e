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

}  // namespace pagesieve::store
