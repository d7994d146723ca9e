#include "store/near_store.h"

#include <rocksdb/db.h>

#include <memory>
#include <tuple>

#include "store/codec.h"
#include "store/expiry.h"
#include "store/keys.h"

namespace pagesieve::store {
namespace {

// The order of "earliest" among matches at the same distance.
bool Earlier(const NearMatch& a, const NearMatch& b) {
  return std::tuple(a.origin.event_time, a.origin.partition, a.origin.offset, a.simhash) <
         std::tuple(b.origin.event_time, b.origin.partition, b.origin.offset, b.simhash);
}

}  // namespace

NearStore::NearStore(ShardDb* db, const NearLayout* layout, Duration ttl,
                     const EventTime* watermark)
    : db_(db),
      layout_(layout),
      ttl_(ttl),
      grace_(NearIndexGrace(ttl)),
      watermark_(watermark),
      index_(layout, grace_) {}

Status NearStore::BuildIndex() {
  DropExpired();
  const int64_t cutoff = LiveCutoff(ToMillis(*watermark_), ttl_);
  rocksdb::ReadOptions options;
  options.total_order_seek = true;
  options.fill_cache = false;  // one pass over everything: keep the cache for lookups
  uint64_t estimate = 0;
  if (db_->db()->GetIntProperty(db_->handle(kNearCf), "rocksdb.estimate-num-keys", &estimate)) {
    index_.Reserve(static_cast<size_t>(estimate));
  }
  std::unique_ptr<rocksdb::Iterator> it(db_->db()->NewIterator(options, db_->handle(kNearCf)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const rocksdb::Slice key = it->key(), value = it->value();
    if (key.size() != kSimHashKeySize || value.size() < 16) {
      return Status::Corruption("shard " + db_->dir() + ": malformed SimHash entry");
    }
    // [last_seen 8][indexed_at 8]...: the rest is not needed here.
    const auto last_seen = static_cast<int64_t>(DecodeFixed64(value.data()));
    if (last_seen < cutoff) continue;  // dead, and stays so
    const auto indexed_at = static_cast<int64_t>(DecodeFixed64(value.data() + 8));
    index_.Add(DecodeFixed64(key.data() + 8), EventTimeFromMillis(indexed_at));
  }
  return FromRocks(it->status(), "shard " + db_->dir() + ": reading the SimHash entries");
}

void NearStore::DropExpired() {
  // A live entry has last_seen >= cutoff and was indexed at most grace before.
  index_.DropBefore(EventTimeFromMillis(LiveCutoff(ToMillis(*watermark_), ttl_)) - grace_);
}

StatusOr<std::optional<NearMatch>> NearStore::Find(uint64_t scope_id, uint64_t simhash,
                                                   int max_distance, const OriginFilter& filter) {
  if (max_distance < 0 || max_distance > layout_->max_distance()) {
    return Status::InvalidArgument("FindNear: max_distance " + std::to_string(max_distance) +
                                   " is outside 0.." + std::to_string(layout_->max_distance()) +
                                   " (near.max_distance the shard was built for)");
  }
  candidates_.clear();
  index_.Collect(simhash, max_distance, &candidates_);
  // A SimHash is listed once per table (and generation) that holds it.
  std::sort(candidates_.begin(), candidates_.end());
  candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
  // Candidates come sorted by distance; the first distance with a live,
  // accepted entry of this scope wins, and among its entries the earliest
  // origin.
  std::optional<NearMatch> best;
  for (const Candidate& c : candidates_) {
    if (best && c.distance > best->distance) break;
    PS_ASSIGN_OR_RETURN(std::optional<NearEntry> entry, LiveEntry(scope_id, c.simhash, filter));
    if (!entry) continue;
    NearMatch match{c.simhash, c.distance, std::move(entry->origin), entry->last_seen};
    if (!best || Earlier(match, *best)) best = std::move(match);
  }
  return best;
}

StatusOr<std::optional<NearEntry>> NearStore::LiveEntry(uint64_t scope_id, uint64_t simhash,
                                                        const OriginFilter& filter) {
  std::string_view value;
  bool found = false;
  PS_RETURN_IF_ERROR(db_->Get(kNearCf, EntryKey(scope_id, simhash).view(), &value, &found));
  // Absent: another scope's SimHash, or an entry expired since it was indexed.
  if (!found) return std::optional<NearEntry>();
  PS_ASSIGN_OR_RETURN(NearEntry entry, DecodeNearValue(value));
  if (!IsLive(entry.last_seen, *watermark_, ttl_) || !filter.Accepts(entry.origin)) {
    return std::optional<NearEntry>();
  }
  return std::optional<NearEntry>(std::move(entry));
}

Status NearStore::Insert(uint64_t scope_id, uint64_t simhash, const Origin& origin) {
  PS_RETURN_IF_ERROR(CheckOrigin(origin));
  // Every live entry is indexed, so a SimHash the index lacks needs no read:
  // a new page's SimHash almost always is one.
  if (index_.Contains(simhash)) {
    PS_ASSIGN_OR_RETURN(std::optional<NearEntry> live, LiveEntry(scope_id, simhash, {}));
    if (live) return Touch(scope_id, simhash, origin.event_time);
  }
  const NearEntry entry{origin, origin.event_time, origin.event_time};
  index_.Add(simhash, entry.indexed_at);
  PutEntry(scope_id, simhash, entry);
  return Status::Ok();
}

Status NearStore::Touch(uint64_t scope_id, uint64_t simhash, EventTime t) {
  PS_ASSIGN_OR_RETURN(std::optional<NearEntry> entry, LiveEntry(scope_id, simhash, {}));
  if (!entry) return Status::NotFound("TouchNear: no live entry for this SimHash in this scope");
  if (t <= entry->last_seen) return Status::Ok();
  entry->last_seen = t;
  // Keep last_seen <= indexed_at + grace, so the index never drops a live entry.
  if (t - entry->indexed_at > grace_) {
    entry->indexed_at = t;
    index_.Add(simhash, t);
  }
  PutEntry(scope_id, simhash, *entry);
  return Status::Ok();
}

void NearStore::PutEntry(uint64_t scope_id, uint64_t simhash, const NearEntry& entry) {
  db_->Put(kNearCf, EntryKey(scope_id, simhash).view(), EncodeNearValue(entry));
}

}  // namespace pagesieve::store
