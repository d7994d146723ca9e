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

}  // namespace pagesieve::store
