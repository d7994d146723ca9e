#include "store/near_store.h"

#include <bit>
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
    : db_(db), layout_(layout), ttl_(ttl), grace_(NearTableGrace(ttl)), watermark_(watermark) {}

StatusOr<std::optional<NearMatch>> NearStore::Find(uint64_t scope_id, uint64_t simhash,
                                                   int max_distance, const OriginFilter& filter) {
  if (max_distance < 0 || max_distance > layout_->max_distance()) {
    return Status::InvalidArgument("FindNear: max_distance " + std::to_string(max_distance) +
                                   " is outside 0.." + std::to_string(layout_->max_distance()) +
                                   " (near.max_distance the shard was built for)");
  }
  PS_RETURN_IF_ERROR(Collect(scope_id, simhash, max_distance));
  // Candidates come sorted by distance; the first distance with a live,
  // accepted entry wins, and among its entries the earliest origin.
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

Status NearStore::Collect(uint64_t scope_id, uint64_t simhash, int max_distance) {
  candidates_.clear();
  char key[32];
  const size_t probe_size = layout_->probe_prefix_size();
  for (int t = 0; t < layout_->tables(); ++t) {
    layout_->EncodeKey(scope_id, t, simhash, key);
    const std::string_view probe(key, probe_size);
    PS_RETURN_IF_ERROR(ScanDb(probe, simhash, max_distance));
    if (!pending_probes_.empty()) ScanPending(probe, simhash, max_distance);
  }
  // An entry appears once per table that shares its prefix with the query.
  std::sort(candidates_.begin(), candidates_.end());
  candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
  return Status::Ok();
}

Status NearStore::ScanDb(std::string_view probe, uint64_t simhash, int max_distance) {
  PS_ASSIGN_OR_RETURN(rocksdb::Iterator * it, db_->DbIterator(kNearTablesCf));
  for (it->Seek(rocksdb::Slice(probe.data(), probe.size())); it->Valid(); it->Next()) {
    const std::string_view key(it->key().data(), it->key().size());
    if (!key.starts_with(probe)) break;
    uint64_t stored = 0;
    if (!layout_->DecodeKey(key, &stored)) continue;  // not ours: skip rather than fail
    const int d = std::popcount(stored ^ simhash);
    if (d <= max_distance) candidates_.push_back({d, stored});
  }
  return FromRocks(it->status(), "shard " + db_->dir() + ": SimHash table scan");
}

void NearStore::ScanPending(std::string_view probe, uint64_t simhash, int max_distance) {
  auto it = pending_probes_.find(std::string(probe));
  if (it == pending_probes_.end()) return;
  for (uint64_t stored : it->second) {
    const int d = std::popcount(stored ^ simhash);
    if (d <= max_distance) candidates_.push_back({d, stored});
  }
}

StatusOr<std::optional<NearEntry>> NearStore::LiveEntry(uint64_t scope_id, uint64_t simhash,
                                                        const OriginFilter& filter) {
  std::string_view value;
  bool found = false;
  PS_RETURN_IF_ERROR(db_->Get(kNearCf, EntryKey(scope_id, simhash).view(), &value, &found));
  if (!found) return std::optional<NearEntry>();  // a table key outliving its entry
  PS_ASSIGN_OR_RETURN(NearEntry entry, DecodeNearValue(value));
  if (!IsLive(entry.last_seen, *watermark_, ttl_) || !filter.Accepts(entry.origin)) {
    return std::optional<NearEntry>();
  }
  return std::optional<NearEntry>(std::move(entry));
}

Status NearStore::Insert(uint64_t scope_id, uint64_t simhash, const Origin& origin) {
  PS_RETURN_IF_ERROR(CheckOrigin(origin));
  PS_ASSIGN_OR_RETURN(std::optional<NearEntry> live, LiveEntry(scope_id, simhash, {}));
  if (live) return Touch(scope_id, simhash, origin.event_time);
  const NearEntry entry{origin, origin.event_time, origin.event_time};
  WriteTables(scope_id, simhash, entry.tables_refreshed);
  PutEntry(scope_id, simhash, entry);
  return Status::Ok();
}

Status NearStore::Touch(uint64_t scope_id, uint64_t simhash, EventTime t) {
  PS_ASSIGN_OR_RETURN(std::optional<NearEntry> entry, LiveEntry(scope_id, simhash, {}));
  if (!entry) return Status::NotFound("TouchNear: no live entry for this SimHash in this scope");
  if (t <= entry->last_seen) return Status::Ok();
  entry->last_seen = t;
  // Keep last_seen <= tables_refreshed + grace (see NearTableGrace).
  if (t - entry->tables_refreshed > grace_) {
    entry->tables_refreshed = t;
    WriteTables(scope_id, simhash, t);
  }
  PutEntry(scope_id, simhash, *entry);
  return Status::Ok();
}

void NearStore::WriteTables(uint64_t scope_id, uint64_t simhash, EventTime refreshed) {
  std::string value;
  PutFixed64(&value, static_cast<uint64_t>(ToMillis(refreshed)));
  char key[32];
  for (int t = 0; t < layout_->tables(); ++t) {
    layout_->EncodeKey(scope_id, t, simhash, key);
    const std::string_view k(key, layout_->key_size());
    db_->Put(kNearTablesCf, k, value);
    pending_probes_[std::string(k.substr(0, layout_->probe_prefix_size()))].push_back(simhash);
  }
}

void NearStore::PutEntry(uint64_t scope_id, uint64_t simhash, const NearEntry& entry) {
  db_->Put(kNearCf, EntryKey(scope_id, simhash).view(), EncodeNearValue(entry));
}

}  // namespace pagesieve::store
