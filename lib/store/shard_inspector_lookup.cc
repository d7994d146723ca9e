// ShardInspector's lookups: what each store holds for one key, expired
// entries included.
#include <algorithm>
#include <bit>
#include <limits>
#include <tuple>

#include "store/time_decayed_filter.h"
#include "store/codec.h"
#include "store/expiry.h"
#include "store/keys.h"
#include "store/shard_db.h"
#include "store/shard_inspector.h"
#include "store/url_bloom.h"

namespace pagesieve::store {
namespace {

// last_seen + ttl without overflowing on hostile times.
EventTime LiveUntil(EventTime last_seen, Duration ttl) {
  int64_t until = 0;
  if (__builtin_add_overflow(ToMillis(last_seen), ttl.count(), &until)) {
    until =
        ttl.count() > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return EventTimeFromMillis(until);
}

template <typename Entry>
Inspected<Entry> Judge(Entry entry, EventTime watermark, Duration ttl) {
  Inspected<Entry> out;
  out.live = IsLive(entry.last_seen, watermark, ttl);
  out.live_until = LiveUntil(entry.last_seen, ttl);
  out.entry = std::move(entry);
  return out;
}

// A point read straight from the database (an inspector has no overlay).
StatusOr<std::optional<std::string>> Read(ShardDb* db, Cf cf, std::string_view key) {
  std::string_view value;
  bool found = false;
  PS_RETURN_IF_ERROR(db->Get(cf, key, &value, &found));
  if (!found) return std::optional<std::string>();
  return std::optional<std::string>(std::string(value));
}

// The near column family's prefix extractor covers a whole key; a scan of
// one scope crosses prefixes, so it seeks in total order.
std::unique_ptr<rocksdb::Iterator> TotalOrderIterator(ShardDb* db, Cf cf) {
  rocksdb::ReadOptions options;
  options.total_order_seek = true;
  return std::unique_ptr<rocksdb::Iterator>(db->db()->NewIterator(options, db->handle(cf)));
}

// The order of FindNear()'s candidates: closer, then the earliest origin.
bool Before(const Inspected<NearCandidate>& a, const Inspected<NearCandidate>& b) {
  const NearCandidate& x = a.entry;
  const NearCandidate& y = b.entry;
  return std::tuple(x.distance, x.origin.event_time, x.origin.partition, x.origin.offset,
                    x.simhash) < std::tuple(y.distance, y.origin.event_time, y.origin.partition,
                                            y.origin.offset, y.simhash);
}

}  // namespace

StatusOr<UrlInspection> ShardInspector::InspectUrl(std::string_view scope, const Digest128& url) {
  const uint64_t scope_id = ScopeId(scope);
  UrlInspection out;
  PS_ASSIGN_OR_RETURN(const TimeDecayedFilter* bloom, Bloom());
  if (bloom) out.bloom_may_contain = bloom->MayContain(UrlBloomKey(scope_id, url));
  PS_ASSIGN_OR_RETURN(std::optional<std::string> value,
                      Read(db_.get(), kUrlCf, EntryKey(scope_id, url).view()));
  if (value) {
    PS_ASSIGN_OR_RETURN(UrlEntry entry, DecodeUrlValue(*value));
    out.entry = Judge(std::move(entry), watermark_, configured_.url_ttl);
  }
  return out;
}

StatusOr<std::optional<Inspected<ContentEntry>>> ShardInspector::InspectContent(
    std::string_view scope, const Digest128& content) {
  PS_ASSIGN_OR_RETURN(std::optional<std::string> value,
                      Read(db_.get(), kExactCf, EntryKey(ScopeId(scope), content).view()));
  if (!value) return std::optional<Inspected<ContentEntry>>();
  PS_ASSIGN_OR_RETURN(ContentEntry entry, DecodeContentValue(*value));
  return std::optional<Inspected<ContentEntry>>(
      Judge(std::move(entry), watermark_, configured_.exact_ttl));
}

StatusOr<std::vector<Inspected<NearCandidate>>> ShardInspector::InspectNear(std::string_view scope,
                                                                            uint64_t simhash,
                                                                            int max_distance) {
  if (max_distance < 0 || max_distance > 64) {
    return Status::InvalidArgument("max distance " + std::to_string(max_distance) +
                                   " is outside 0..64");
  }
  const uint64_t scope_id = ScopeId(scope);
  PS_ASSIGN_OR_RETURN(std::vector<uint64_t> candidates,
                      ScopeCandidates(scope_id, simhash, max_distance));
  std::vector<Inspected<NearCandidate>> out;
  for (uint64_t stored : candidates) {
    PS_ASSIGN_OR_RETURN(std::optional<std::string> value,
                        Read(db_.get(), kNearCf, EntryKey(scope_id, stored).view()));
    if (!value) continue;
    PS_ASSIGN_OR_RETURN(NearEntry entry, DecodeNearValue(*value));
    NearCandidate c;
    c.simhash = stored;
    c.distance = std::popcount(stored ^ simhash);
    c.in_tables = true;
    c.origin = std::move(entry.origin);
    c.last_seen = entry.last_seen;
    c.sketch = std::move(entry.sketch);
    out.push_back(Judge(std::move(c), watermark_, configured_.near_ttl));
  }
  std::sort(out.begin(), out.end(), Before);
  return out;
}

// The SimHash index lives in the writer's memory only, so the inspector
// compares every entry of the scope: a diagnostic can afford one scan.
StatusOr<std::vector<uint64_t>> ShardInspector::ScopeCandidates(uint64_t scope_id, uint64_t simhash,
                                                                int max_distance) {
  std::unique_ptr<rocksdb::Iterator> it = TotalOrderIterator(db_.get(), kNearCf);
  char prefix[8];
  for (int i = 0; i < 8; ++i) prefix[i] = static_cast<char>(scope_id >> (56 - 8 * i));
  std::vector<uint64_t> found;
  for (it->Seek(rocksdb::Slice(prefix, 8)); it->Valid(); it->Next()) {
    const rocksdb::Slice k = it->key();
    if (k.size() < 8 || std::string_view(k.data(), 8) != std::string_view(prefix, 8)) break;
    if (k.size() != kSimHashKeySize) continue;
    const uint64_t stored = DecodeFixed64(k.data() + 8);
    if (std::popcount(stored ^ simhash) <= max_distance) found.push_back(stored);
  }
  PS_RETURN_IF_ERROR(FromRocks(it->status(), "shard " + dir() + ": SimHash scope scan"));
  return found;
}

}  // namespace pagesieve::store
