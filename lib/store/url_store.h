#pragma once

#include <cstdint>

#include "common/digest.h"
#include "common/status_or.h"
#include "common/types.h"
#include "store/time_decayed_filter.h"
#include "store/shard.h"
#include "store/shard_db.h"
#include "store/shard_options.h"

namespace pagesieve::store {

// The URL store of one shard. The time-decayed Bloom filter answers first;
// in url.mode = exact a hit is confirmed against the exact entry, (scope,
// URL digest) → origin, last_seen, the last content digest and the last
// write (tier_stores.h), in the url column family. In url.mode = bloom only
// the filter is kept.
// Not thread-safe (part of one shard).
class UrlStore {
 public:
  UrlStore(ShardDb* db, TimeDecayedFilter* bloom, UrlMode mode, Duration ttl,
           const EventTime* watermark)
      : db_(db), bloom_(bloom), mode_(mode), ttl_(ttl), watermark_(watermark) {}

  StatusOr<UrlLookup> Lookup(uint64_t scope_id, const Digest128& url, const OriginFilter& filter);
  Status Record(uint64_t scope_id, const Digest128& url, const Origin& origin, EventTime t,
                const Digest128& content);

 private:
  StatusOr<UrlLookup> LookupExact(uint64_t scope_id, const Digest128& url,
                                  const OriginFilter& filter);

  ShardDb* db_;
  TimeDecayedFilter* bloom_;
  const UrlMode mode_;
  const Duration ttl_;
  const EventTime* watermark_;
};

}  // namespace pagesieve::store
