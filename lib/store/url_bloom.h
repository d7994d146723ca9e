#pragma once

#include <cstdint>
#include <memory>
#include <stop_token>

#include "common/digest.h"
#include "common/status_or.h"
#include "common/types.h"
#include "store/bloom/bloom_options.h"
#include "store/shard_db.h"
#include "store/shard_options.h"
#include "store/time_decayed_filter.h"

namespace pagesieve::store {

// The URL store's filter (url.filter: the time-decayed Bloom or cuckoo
// filter) as the shard keeps it: its header in the metadata and its pages in
// the bloom column family, both written by every checkpoint (StageUrlBloom)
// and read back at open (LoadUrlBloom). The header's magic says which
// structure it is, so a shard keeps working across a change of url.filter.

// What the configured filter is built for: the cuckoo filter always uses 7
// generations (its 3-bit tags name 8), url.bloom_generations is the Bloom's.
BloomOptions UrlBloomOptions(const ShardOptions& options);

// A filter of the configured kind and options, empty.
StatusOr<std::unique_ptr<TimeDecayedFilter>> CreateUrlFilter(const ShardOptions& options);

// The filter a stored header describes (Bloom or cuckoo, by its magic),
// without its pages.
StatusOr<std::unique_ptr<TimeDecayedFilter>> RestoreUrlFilter(std::string_view header);

// The filter key of a URL in a scope. Both halves are SHA-256 output, so
// their XOR is uniform, and the same URL in two scopes gets two keys.
inline uint64_t UrlBloomKey(uint64_t scope_id, const Digest128& url) {
  return url.Low64() ^ scope_id;
}

// The filter of the last checkpoint. When there is none, or it was built for
// another kind or other options (url.* changed) and the URL store holds exact entries
// (url.mode = exact), a new filter is built from the live URL entries and
// *rebuilt is set: the caller must then have the stale pages deleted at the
// next checkpoint. In url.mode = bloom the stored filter is the only record
// of the URLs seen, so it is kept with the options it was built for. A
// rebuild reads every URL entry; `stop` ends it early with Aborted.
StatusOr<std::unique_ptr<TimeDecayedFilter>> LoadUrlBloom(ShardDb* db, const ShardOptions& options,
                                                          EventTime watermark, bool* rebuilt,
                                                          std::stop_token stop = {});

// The filter of the last checkpoint exactly as stored, whatever the options
// (for inspection: never rebuilt), advanced to `watermark`; null when the
// shard stores none.
StatusOr<std::unique_ptr<TimeDecayedFilter>> LoadStoredUrlBloom(ShardDb* db, EventTime watermark);

// Whether a filter built for `a` answers like one built for `b`.
bool SameBloomOptions(const BloomOptions& a, const BloomOptions& b);
// Whether `filter` is what `options` configure (kind and options).
bool IsConfiguredFilter(const TimeDecayedFilter& filter, const ShardOptions& options);

// The key of a filter page in the bloom column family.
std::string UrlBloomPageKey(uint32_t page_id);

// Adds the header and every dirty page to the overlay.
void StageUrlBloom(ShardDb* db, const TimeDecayedFilter& bloom);

}  // namespace pagesieve::store
