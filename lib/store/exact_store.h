#pragma once

#include <cstdint>
#include <optional>

#include "common/digest.h"
#include "common/status_or.h"
#include "common/types.h"
#include "store/shard.h"
#include "store/shard_db.h"

namespace pagesieve::store {

// The exact-hash store of one shard: (scope, content digest) → first-seen
// origin and last_seen, in the exact column family.
// Not thread-safe (part of one shard).
class ExactStore {
 public:
  ExactStore(ShardDb* db, Duration ttl, const EventTime* watermark)
      : db_(db), ttl_(ttl), watermark_(watermark) {}

  StatusOr<std::optional<ContentEntry>> Lookup(uint64_t scope_id, const Digest128& content,
                                               const OriginFilter& filter);
  // Creates the entry, or touches it when a live one exists (keeping its origin).
  Status Insert(uint64_t scope_id, const Digest128& content, const Origin& origin);
  Status Touch(uint64_t scope_id, const Digest128& content, EventTime t);

 private:
  ShardDb* db_;
  const Duration ttl_;
  const EventTime* watermark_;
};

}  // namespace pagesieve::store
