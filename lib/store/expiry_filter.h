#pragma once

#include <rocksdb/compaction_filter.h>

#include <memory>
#include <string>

#include "common/types.h"
#include "store/expired_keys.h"
#include "store/expiry.h"

namespace pagesieve::store {

// A compaction filter factory that removes entries whose leading last_seen
// (codec.h) is dead at the durable watermark for `ttl`. Each compaction reads the
// watermark once, when its filter is created. Values too short to hold a
// time are kept: compaction never removes what it does not understand.
// Each removed key is reported to `expired` (when set and enabled) under
// `column_family`, for the changelog's tombstones.
std::shared_ptr<rocksdb::CompactionFilterFactory> NewExpiryFilterFactory(
    std::shared_ptr<const DurableWatermark> watermark, Duration ttl, std::string name,
    std::shared_ptr<ExpiredKeys> expired = nullptr, int column_family = 0);

}  // namespace pagesieve::store
