#pragma once

#include <cstdint>

#include "common/digest.h"
#include "common/status_or.h"
#include "common/types.h"
#include "store/shard.h"
#include "store/shard_db.h"
#include "store/shard_options.h"

namespace pagesieve::store {

// The URL store of one shard: (scope, URL digest) → origin, last_seen and
// the last content digest seen at the URL, in the url column family.
// Not thread-safe (part of one shard).
class UrlStore {
 public:
  UrlStore(ShardDb* db, Duration ttl, const EventTime* watermark)
      : db_(db), ttl_(ttl), watermark_(watermark) {}

  StatusOr<UrlLookup> Lookup(uint64_t scope_id, const Digest128& url, const OriginFilter& filter);
  Status Record(uint64_t scope_id, const Digest128& url, const Origin& origin, EventTime t,
                const Digest128& content);

 private:
  ShardDb* db_;
  const Duration ttl_;
  const EventTime* watermark_;
};

}  // namespace pagesieve::store
