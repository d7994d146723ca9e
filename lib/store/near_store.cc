#include "store/near_store.h"

#include <rocksdb/db.h>

#include <memory>

#include "store/codec.h"
#include "store/expiry.h"
#include "store/keys.h"

namespace pagesieve::store {
namespace {

// Entries BuildIndex reads between looks at its stop token: a few
// milliseconds of work, so a stopped open ends at once.
constexpr uint64_t kStopCheckInterval = 4096;

}  // namespace

NearStore::NearStore(ShardDb* db, const NearLayout* layout, const LshBands* bands,
                     int fingerprint_version, Duration ttl, const EventTime* watermark)
    : db_(db),
      layout_(layout),
      bands_(bands),
      fingerprint_version_(fingerprint_version),
      ttl_(ttl),
      grace_(NearIndexGrace(ttl)),
      watermark_(watermark),
      index_(layout, grace_) {
  if (bands_) lsh_.emplace(bands_->bands(), grace_);
}

Status NearStore::BuildIndex(EventTime expire_at, const std::stop_token& stop) {
  DropExpired(expire_at);
  const int64_t cutoff = LiveCutoff(ToMillis(expire_at), ttl_);
  rocksdb::ReadOptions options;
  options.total_order_seek = true;
  options.fill_cache = false;  // one pass over everything: keep the cache for lookups
  uint64_t estimate = 0;
  if (db_->db()->GetIntProperty(db_->handle(kNearCf), "rocksdb.estimate-num-keys", &estimate)) {
    index_.Reserve(static_cast<size_t>(estimate));
    if (lsh_) lsh_->Reserve(static_cast<size_t>(estimate));
  }
  std::unique_ptr<rocksdb::Iterator> it(db_->db()->NewIterator(options, db_->handle(kNearCf)));
  uint64_t read = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (++read % kStopCheckInterval == 0 && stop.stop_requested()) {
      return Status::Aborted("shard " + db_->dir() + ": open stopped while indexing SimHashes");
    }
    const rocksdb::Slice key = it->key(), value = it->value();
    if (key.size() == kHomeEntryKeySize) continue;  // the entry's own key indexes it
    if (key.size() != kSimHashKeySize || value.size() < 16) {
      return Status::Corruption("shard " + db_->dir() + ": malformed SimHash entry");
    }
    // [last_seen 8][indexed_at 8][origin][rows][sketch]: a dead entry is
    // skipped before its origin is stepped over to find the rest.
    const auto last_seen = static_cast<int64_t>(DecodeFixed64(value.data()));
    if (last_seen < cutoff) continue;  // dead, and stays so
    PS_ASSIGN_OR_RETURN(NearIndexFields fields,
                        DecodeNearIndexFields(std::string_view(value.data(), value.size())));
    const auto indexed_at = static_cast<int64_t>(DecodeFixed64(value.data() + 8));
    const bool banded = fields.slim ? SlimKeys(fields.rows, fields.band_keys)
                                    : BandKeys(fields.sketch);
    PS_RETURN_IF_ERROR(IndexEntry(DecodeFixed64(key.data() + 8), banded, fields.rows,
                                  EventTimeFromMillis(indexed_at), /*staged=*/true));
  }
  if (lsh_) lsh_->Flush();
  return FromRocks(it->status(), "shard " + db_->dir() + ": reading the near entries");
}

void NearStore::DropExpired(EventTime at) {
  // A live entry has last_seen >= cutoff and was indexed at most grace
  // before. LiveCutoff saturates, and so does this: `at` may be the
  // earliest time there is (a routed owner holding everything).
  const EventTime oldest = EventTimeFromMillis(LiveCutoff(LiveCutoff(ToMillis(at), ttl_), grace_));
  index_.DropBefore(oldest);
  if (lsh_) lsh_->DropBefore(oldest);
}

bool NearStore::Comparable(std::string_view sketch) const {
  return bands_ && !sketch.empty() &&
         static_cast<unsigned char>(sketch[0]) == fingerprint_version_ && bands_->Fits(sketch);
}

bool NearStore::BandKeys(std::string_view sketch) {
  if (!keys_of_.empty() && sketch == keys_of_) return true;
  keys_of_.clear();
  if (!Comparable(sketch) || !bands_->Keys(sketch, &keys_)) return false;
  keys_of_.assign(sketch);
  return true;
}

bool NearStore::SlimKeys(const NearRows& rows, std::string_view packed) {
  keys_of_.clear();  // keys_ no longer hold a sketch's keys
  if (!bands_ || packed.empty()) return false;
  keys_.assign(static_cast<size_t>(bands_->bands()), 0);
  for (int b = 0; b < bands_->bands(); ++b) {
    if (!rows.HasBand(b)) continue;
    if (packed.size() < 8) return false;
    keys_[static_cast<size_t>(b)] = DecodeFixed64(packed.data());
    packed.remove_prefix(8);
  }
  return packed.empty();
}

std::string NearStore::PackBandKeys(const NearRows& rows) const {
  std::string packed;
  for (int b = 0; b < bands_->bands(); ++b) {
    if (rows.HasBand(b)) PutFixed64(&packed, keys_[static_cast<size_t>(b)]);
  }
  return packed;
}

Status NearStore::IndexEntry(uint64_t simhash, bool banded, const NearRows& rows, EventTime t,
                             bool staged) {
  // The LSH index first: when it is full, nothing is indexed.
  if (banded && rows.AnyBand(bands_ ? bands_->bands() : 0) &&
      !(staged ? lsh_->Stage(simhash, keys_, t, rows) : lsh_->Add(simhash, keys_, t, rows))) {
    return Status::ResourceExhausted("shard " + db_->dir() + ": the LSH index holds " +
                                     std::to_string(LshIndex::kMaxEntries) +
                                     " entries, its limit; spread the input over more partitions");
  }
  index_.Add(simhash, t, rows);
  return Status::Ok();
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

Status NearStore::Insert(uint64_t scope_id, uint64_t simhash, std::string_view sketch,
                         const Origin& origin, const NearRows& rows, bool home) {
  PS_RETURN_IF_ERROR(CheckOrigin(origin));
  if (!sketch.empty())
    PS_RETURN_IF_ERROR(ParseSketchHeader(sketch).status().WithContext("InsertNear"));
  // Every live entry with every row is in table 0, so a SimHash the index
  // lacks needs no read: a new page's SimHash almost always is one. An
  // owner's share of the rows may leave table 0 out: it reads.
  if (!rows.all() || index_.Contains(simhash)) {
    PS_ASSIGN_OR_RETURN(std::optional<NearEntry> live, LiveEntry(scope_id, simhash, {}));
    if (live) return Touch(scope_id, simhash, origin.event_time, home);
  }
  const bool banded = BandKeys(sketch);
  NearEntry entry{origin, origin.event_time, origin.event_time, std::string(sketch), rows};
  PS_RETURN_IF_ERROR(IndexEntry(simhash, banded, rows, entry.indexed_at));
  if (home) {
    // Under its own key, so that a later incarnation does not replace it
    // while a fetch that found this one alive may still come. Whole, with
    // every row: the home entry indexes nothing.
    NearEntry whole = entry;
    whole.rows = NearRows::All();
    db_->Put(kNearCf, HomeEntryKey(scope_id, simhash, PositionOf(origin)),
             EncodeNearValue(whole));
  }
  if (!rows.all()) {
    // A routed owner's share: the row keeps what its indexes and lookups
    // need, the home the rest.
    entry.slim = true;
    entry.band_keys = banded ? PackBandKeys(rows) : std::string();
    entry.sketch.clear();
    entry.origin.event_id.clear();
    entry.origin.url.clear();
  }
  PutEntry(scope_id, simhash, entry);
  return Status::Ok();
}

Status NearStore::Touch(uint64_t scope_id, uint64_t simhash, EventTime t, bool home) {
  PS_ASSIGN_OR_RETURN(std::optional<NearEntry> entry, LiveEntry(scope_id, simhash, {}));
  if (!entry) return Status::NotFound("TouchNear: no live entry for this SimHash in this scope");
  if (home) PS_RETURN_IF_ERROR(SlideHomeEntry(scope_id, simhash, entry->origin, t));
  if (t <= entry->last_seen) return Status::Ok();
  entry->last_seen = t;
  // Keep last_seen <= indexed_at + grace, so the indexes never drop a live entry.
  if (t - entry->indexed_at > grace_) {
    entry->indexed_at = t;
    const bool banded =
        entry->slim ? SlimKeys(entry->rows, entry->band_keys) : BandKeys(entry->sketch);
    PS_RETURN_IF_ERROR(IndexEntry(simhash, banded, entry->rows, t));
  }
  PutEntry(scope_id, simhash, *entry);
  return Status::Ok();
}

void NearStore::PutEntry(uint64_t scope_id, uint64_t simhash, const NearEntry& entry) {
  db_->Put(kNearCf, EntryKey(scope_id, simhash).view(), EncodeNearValue(entry));
}

Status NearStore::SlideHomeEntry(uint64_t scope_id, uint64_t simhash, const Origin& origin,
                                 EventTime t) {
  const std::string key = HomeEntryKey(scope_id, simhash, PositionOf(origin));
  std::string_view value;
  bool found = false;
  PS_RETURN_IF_ERROR(db_->Get(kNearCf, key, &value, &found));
  if (!found) return Status::Ok();  // a shard of format 5: the entry is whole
  PS_ASSIGN_OR_RETURN(NearEntry whole, DecodeNearValue(value));
  if (t <= whole.last_seen) return Status::Ok();
  whole.last_seen = t;
  whole.indexed_at = t;
  db_->Put(kNearCf, key, EncodeNearValue(whole));
  return Status::Ok();
}

StatusOr<std::optional<NearEntry>> NearStore::HomeEntry(uint64_t scope_id, uint64_t simhash,
                                                        const OriginPosition& at) {
  std::string_view value;
  bool found = false;
  PS_RETURN_IF_ERROR(db_->Get(kNearCf, HomeEntryKey(scope_id, simhash, at), &value, &found));
  if (!found) {
    PS_RETURN_IF_ERROR(db_->Get(kNearCf, EntryKey(scope_id, simhash).view(), &value, &found));
  }
  if (!found) return std::optional<NearEntry>();
  PS_ASSIGN_OR_RETURN(NearEntry entry, DecodeNearValue(value));
  // A slim row is not whole; a whole one is (format 5) when it is that
  // incarnation.
  if (entry.slim || PositionOf(entry.origin) != at) return std::optional<NearEntry>();
  return std::optional<NearEntry>(std::move(entry));
}

}  // namespace pagesieve::store
