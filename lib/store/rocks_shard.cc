#include "store/rocks_shard.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "store/changelog.h"
#include "store/shard_meta.h"
#include "store/shard_snapshot.h"
#include "store/url_bloom.h"

namespace pagesieve::store {
namespace {

// With state.sync = false, the WAL is synced (and the watermark handed to
// compaction) once per this many checkpoints.
constexpr uint64_t kCheckpointsPerWalSync = 64;

// Keys the expiry sweep visits per changelog checkpoint: a floor, plus this
// many per key the checkpoint writes. A pass over S stored keys then takes at
// most S / kSweepKeysPerWrite written keys, so the entries that are dead but
// not yet swept stay below about a third of the live ones
// (docs/changelog.md). Visiting a key costs a fraction of writing one.
constexpr uint64_t kSweepMinKeys = 4096;
constexpr uint64_t kSweepKeysPerWrite = 4;

}  // namespace

StatusOr<std::unique_ptr<Shard>> RocksShard::Open(std::shared_ptr<const StateEnv::Resources> env,
                                                  const std::string& dir,
                                                  const ShardOptions& options,
                                                  std::stop_token stop) {
  PS_RETURN_IF_ERROR(ValidateShardOptions(options));
  PS_ASSIGN_OR_RETURN(NearLayout layout,
                      NearLayout::Create(options.near_max_distance, options.near_tables));
  std::optional<LshBands> bands;
  if (options.minhash_slots > 0) {
    PS_ASSIGN_OR_RETURN(bands, LshBands::Create(options.minhash_slots, options.minhash_bits,
                                                options.near_lsh_threshold));
  }
  auto durable = std::make_shared<DurableWatermark>();
  auto expired = std::make_shared<ExpiredKeys>();
  PS_ASSIGN_OR_RETURN(
      std::unique_ptr<ShardDb> db,
      ShardDb::Open(dir, MakeDbOptions(*env), MakeColumnFamilies(*env, options, durable, expired),
                    env->options.sync));
  ShardIdentity identity;
  identity.fingerprint_version = options.fingerprint_version;
  identity.near_max_distance = layout.max_distance();
  identity.near_blocks = layout.blocks();
  PS_RETURN_IF_ERROR(CheckOrCreateIdentity(db.get(), identity));
  PS_ASSIGN_OR_RETURN(ShardProgress progress, LoadProgress(db.get()));
  bool rebuilt = false;
  PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedFilter> bloom,
                      LoadUrlBloom(db.get(), options, progress.watermark, &rebuilt, stop));
  if (rebuilt) db->ClearOnCommit(kBloomCf);  // pages of the filter it replaces
  std::unique_ptr<RocksShard> shard(new RocksShard(std::move(env), options, layout, bands,
                                                   std::move(durable), std::move(expired),
                                                   std::move(db), std::move(bloom)));
  shard->watermark_ = progress.watermark;
  shard->live_at_ = progress.watermark;
  shard->checkpointed_ = progress.next_offset;
  shard->changelog_next_ = progress.changelog_next;
  // A routed owner's shard keeps holding what its last checkpoint held
  // until the owner, restored, holds again: the index and compaction must
  // not drop what the owner's records in flight may still see.
  shard->expiry_hold_ = progress.expiry_hold;
  shard->shipped_hold_ = progress.expiry_hold;
  shard->hold_stored_ = progress.expiry_hold.has_value();
  shard->durable_->Publish(ToMillis(shard->ExpireAt()));
  PS_RETURN_IF_ERROR(shard->near_.BuildIndex(shard->ExpireAt(), stop));
  return std::unique_ptr<Shard>(std::move(shard));
}

RocksShard::RocksShard(std::shared_ptr<const StateEnv::Resources> env, const ShardOptions& options,
                       const NearLayout& layout, std::optional<LshBands> bands,
                       std::shared_ptr<DurableWatermark> durable,
                       std::shared_ptr<ExpiredKeys> expired, std::unique_ptr<ShardDb> db,
                       std::unique_ptr<TimeDecayedFilter> bloom)
    : env_(std::move(env)),
      options_(options),
      layout_(layout),
      bands_(std::move(bands)),
      durable_(std::move(durable)),
      expired_(std::move(expired)),
      db_(std::move(db)),
      bloom_(std::move(bloom)),
      url_(db_.get(), bloom_.get(), options_.url_mode, options_.url_ttl, &live_at_),
      exact_(db_.get(), options_.exact_ttl, &live_at_),
      near_(db_.get(), &layout_, bands_ ? &*bands_ : nullptr, options_.fingerprint_version,
            options_.near_ttl, &live_at_),
      sweep_({{kUrlCf, options_.url_ttl},
              {kExactCf, options_.exact_ttl},
              {kNearCf, options_.near_ttl}}) {}

void RocksShard::ObserveEventTime(EventTime t) {
  if (t <= watermark_) return;
  watermark_ = t;
  if (!read_point_) live_at_ = t;
  bloom_->AdvanceWatermark(t);
}

void RocksShard::SetReadPoint(std::optional<EventTime> t) {
  read_point_ = t;
  live_at_ = t ? *t : watermark_;
}

StatusOr<UrlLookup> RocksShard::LookupUrl(std::string_view scope, const Digest128& url,
                                          const OriginFilter& filter) {
  PS_RETURN_IF_ERROR(error_);
  return url_.Lookup(scopes_.Get(scope), url, filter);
}

Status RocksShard::RecordUrl(std::string_view scope, const Digest128& url, const Origin& origin,
                             EventTime t, const Digest128& content) {
  PS_RETURN_IF_ERROR(error_);
  ObserveEventTime(t);
  return url_.Record(scopes_.Get(scope), url, origin, t, content);
}

StatusOr<std::optional<ContentEntry>> RocksShard::LookupContent(std::string_view scope,
                                                                const Digest128& content,
                                                                const OriginFilter& filter) {
  PS_RETURN_IF_ERROR(error_);
  return exact_.Lookup(scopes_.Get(scope), content, filter);
}

Status RocksShard::InsertContent(std::string_view scope, const Digest128& content,
                                 const Origin& origin) {
  PS_RETURN_IF_ERROR(error_);
  ObserveEventTime(origin.event_time);
  return exact_.Insert(scopes_.Get(scope), content, origin);
}

Status RocksShard::TouchContent(std::string_view scope, const Digest128& content, EventTime t) {
  PS_RETURN_IF_ERROR(error_);
  ObserveEventTime(t);
  return exact_.Touch(scopes_.Get(scope), content, t);
}

StatusOr<std::vector<NearCandidate>> RocksShard::FindNear(std::string_view scope,
                                                          const NearQuery& query,
                                                          const OriginFilter& filter) {
  PS_RETURN_IF_ERROR(error_);
  return near_.Find(scopes_.Get(scope), query, filter);
}

Status RocksShard::InsertNear(std::string_view scope, uint64_t simhash, std::string_view sketch,
                              const Origin& origin) {
  return InsertNearRows(scope, simhash, sketch, origin, NearRows::All(), /*home=*/false);
}

Status RocksShard::InsertNearRows(std::string_view scope, uint64_t simhash,
                                  std::string_view sketch, const Origin& origin,
                                  const NearRows& rows, bool home) {
  PS_RETURN_IF_ERROR(error_);
  ObserveEventTime(origin.event_time);
  return near_.Insert(scopes_.Get(scope), simhash, sketch, origin, rows, home);
}

Status RocksShard::TouchNearHome(std::string_view scope, uint64_t simhash, EventTime t) {
  PS_RETURN_IF_ERROR(error_);
  ObserveEventTime(t);
  return near_.Touch(scopes_.Get(scope), simhash, t, /*home=*/true);
}

StatusOr<std::optional<NearCandidate>> RocksShard::NearHomeEntry(std::string_view scope,
                                                                 uint64_t simhash,
                                                                 const OriginPosition& at) {
  PS_RETURN_IF_ERROR(error_);
  PS_ASSIGN_OR_RETURN(std::optional<NearEntry> entry,
                      near_.HomeEntry(scopes_.Get(scope), simhash, at));
  if (!entry) return std::optional<NearCandidate>();
  NearCandidate whole;
  whole.simhash = simhash;
  whole.origin = std::move(entry->origin);
  whole.last_seen = entry->last_seen;
  whole.sketch = std::move(entry->sketch);
  return std::optional<NearCandidate>(std::move(whole));
}

Status RocksShard::TouchNear(std::string_view scope, uint64_t simhash, EventTime t) {
  PS_RETURN_IF_ERROR(error_);
  ObserveEventTime(t);
  return near_.Touch(scopes_.Get(scope), simhash, t);
}

Status RocksShard::Checkpoint(Offset next_offset) {
  PS_RETURN_IF_ERROR(error_);
  StageProgress(db_.get(), watermark_, next_offset);
  if (const std::optional<EventTime> hold = Holding()) {
    StageMeta(db_.get(), kExpiryHoldKey, EncodeExpiryHold(*hold));
    hold_stored_ = true;
  } else if (hold_stored_) {
    db_->Delete(kMetaCf, kExpiryHoldKey);
    hold_stored_ = false;
  }
  // A checkpoint that did not ship leaves the changelog behind the shard:
  // the position goes with it, so that a later run with the changelog seeds
  // it (ships_snapshot) instead of taking it for current.
  if (staged_changelog_next_) {
    StageChangelogNext(db_.get(), *staged_changelog_next_);
  } else if (changelog_next_) {
    ClearChangelogNext(db_.get());
  }
  // A filter whose rebuild failed answers "maybe" for everything: stop
  // here rather than checkpoint it.
  if (Status f = bloom_->status(); !f.ok()) {
    error_ = f.WithContext("URL filter; reopen the shard to resume from the last checkpoint");
    return error_;
  }
  StageUrlBloom(db_.get(), *bloom_);
  Status s = db_->Commit();
  if (!s.ok()) {
    error_ = s.WithContext("checkpoint failed; reopen the shard to resume from the last one");
    return error_;
  }
  bloom_->ClearDirty();
  near_.DropExpired(ExpireAt());
  checkpointed_ = next_offset;
  if (staged_changelog_next_) shipped_hold_ = staged_shipped_hold_;
  changelog_next_ = std::exchange(staged_changelog_next_, {});
  s = PublishDurableWatermark();
  if (!s.ok()) error_ = s;
  return s;
}

void RocksShard::PutHeld(std::string_view key, std::string value) {
  db_->Put(kMetaCf, HeldMetaKey(key), std::move(value));
}

void RocksShard::DeleteHeld(std::string_view key) { db_->Delete(kMetaCf, HeldMetaKey(key)); }

Status RocksShard::ForEachHeld(const HeldFn& fn) {
  PS_RETURN_IF_ERROR(error_);
  // The stored ones the overlay leaves alone, then the overlay's: sorted
  // together, so that an owner rebuilds its queue the same way every time.
  std::map<std::string, std::string> held;
  PS_RETURN_IF_ERROR(ForEachStoredInRange(
      db_.get(), kMetaCf, kHeldPrefix, kHeldEnd,
      [&](std::string_view key, std::string_view value) { held.emplace(key, value); }));
  db_->ForEachPending([&](Cf cf, std::string_view key, std::string_view value) {
    if (cf == kMetaCf && IsHeldMetaKey(key)) held.emplace(key, value);
  });
  for (const auto& [key, value] : held) fn(std::string_view(key).substr(kHeldPrefix.size()), value);
  return Status::Ok();
}

Status RocksShard::ForEachChange(Offset next_offset, const ChangeFn& fn) {
  PS_RETURN_IF_ERROR(error_);
  expired_->Enable();  // compactions from now on report what they expire
  // A snapshot given in pieces (ForEachSnapshotChange) is not given again.
  const bool streamed = snapshot_streamed_;
  snapshot_streamed_ = false;
  if (ships_snapshot() && !streamed) PS_RETURN_IF_ERROR(ForEachStoredChange(next_offset, fn));
  // In url.mode = exact the Bloom filter is rebuilt from the URL entries
  // after a restore, so its pages stay local; in bloom mode they are the
  // only record of the URLs seen and travel with their header.
  const bool ship_bloom = options_.url_mode == UrlMode::kBloom;
  if (ship_bloom) {
    bloom_->ForEachDirtyPage([&](uint32_t page_id, std::string_view bytes) {
      fn(ChangelogEntryKey(kBloomCf, UrlBloomPageKey(page_id)), bytes);
    });
    const std::string header = bloom_->EncodeHeader();
    fn(ChangelogEntryKey(kMetaCf, kBloomHeaderKey), header);
  }
  // An entry written since the last checkpoint but already dead at its
  // watermark (a batch spanning more event time than a TTL) is deleted
  // instead: shipping it would only make the changelog hold it until a
  // sweep comes by.
  std::vector<std::pair<Cf, std::string>> dead_pending;
  db_->ForEachPending([&](Cf cf, std::string_view key, std::string_view value) {
    if (cf == kMetaCf && IsHeldMetaKey(key)) fn(ChangelogEntryKey(cf, key), value);
    if (cf == kMetaCf || cf == kBloomCf) return;
    if (sweep_.IsDead(cf, value, ExpireAt())) {
      dead_pending.emplace_back(cf, key);
      return;
    }
    fn(ChangelogEntryKey(cf, key), value);
  });
  // A held message finished since the last checkpoint leaves the changelog
  // too (the entries' deletes are the sweep's, shipped below).
  db_->ForEachPendingDelete([&](Cf cf, std::string_view key) {
    if (cf == kMetaCf && IsHeldMetaKey(key)) fn(ChangelogEntryKey(cf, key), std::nullopt);
  });
  for (const auto& [cf, key] : dead_pending) {
    fn(ChangelogEntryKey(cf, key), std::nullopt);
    db_->Delete(cf, key);
  }
  // A key compaction expired gets a tombstone unless it exists again: the
  // key is read now, on this thread, so a later write of it reaches the
  // changelog after the tombstone. One that exists again but expired is
  // reported again by the compaction that removes it.
  for (const auto& [cf, key] : expired_->Take()) {
    std::string_view value;
    bool found = false;
    PS_RETURN_IF_ERROR(db_->Get(static_cast<Cf>(cf), key, &value, &found));
    if (!found) fn(ChangelogEntryKey(cf, key), std::nullopt);
  }
  // Whatever compaction has not reached: the sweep deletes the dead entries
  // of its slice in this checkpoint and ships their tombstones with it.
  // Deleting a dead entry changes no answer (lookups never return one).
  const uint64_t budget = kSweepMinKeys + kSweepKeysPerWrite * db_->pending_writes();
  PS_RETURN_IF_ERROR(sweep_.Step(db_.get(), ExpireAt(), budget, [&](Cf cf, std::string_view key) {
    fn(ChangelogEntryKey(cf, key), std::nullopt);
    db_->Delete(cf, key);
  }));
  // The hold, while there is one or when it went: a shard restored from
  // the changelog keeps what this one kept (routed owners only).
  const std::optional<EventTime> hold = Holding();
  if (hold != shipped_hold_) {
    const std::string key = ChangelogEntryKey(kMetaCf, kExpiryHoldKey);
    if (hold) {
      fn(key, EncodeExpiryHold(*hold));
    } else {
      fn(key, std::nullopt);
    }
  }
  staged_shipped_hold_ = hold;
  ChangelogMarker marker;
  marker.next_offset = next_offset;
  marker.watermark = watermark_;
  marker.format_version = kFormatVersion;
  marker.fingerprint_version = options_.fingerprint_version;
  marker.near_max_distance = layout_.max_distance();
  marker.near_blocks = layout_.blocks();
  fn(ChangelogMarkerKey(), EncodeChangelogMarker(marker));
  return Status::Ok();
}

Status RocksShard::SweepAhead(size_t max_keys) {
  PS_RETURN_IF_ERROR(error_);
  if (!expired_->enabled()) return Status::Ok();  // no changelog shipped yet
  return sweep_.WalkAhead(db_.get(), ExpireAt(), max_keys);
}

StatusOr<bool> RocksShard::ForEachSnapshotChange(Offset next_offset, SnapshotCursor* cursor,
                                                 size_t max_keys, const ChangeFn& fn) {
  PS_RETURN_IF_ERROR(error_);
  if (!cursor->begun) {
    // From the first key walked on: a key given now and expired by a
    // compaction before the checkpoint needs its tombstone.
    expired_->Enable();
    fn(ChangelogSnapshotKey(), EncodeChangelogSnapshot(next_offset));
    cursor->begun = true;
  }
  // As ForEachStoredChange: the held messages, then the entries.
  std::vector<StoredRange> ranges = {
      {kMetaCf, std::string(kHeldPrefix), std::string(kHeldEnd), /*skip_dead=*/false},
      {kUrlCf, "", ""},
      {kExactCf, "", ""},
      {kNearCf, "", ""}};
  if (options_.url_mode == UrlMode::kBloom) ranges.push_back({kBloomCf, "", ""});
  PS_ASSIGN_OR_RETURN(
      const bool done,
      WalkStored(
          db_.get(), ranges,
          [&](Cf cf, std::string_view value) { return sweep_.IsDead(cf, value, ExpireAt()); },
          max_keys, cursor,
          [&](Cf cf, std::string_view key, std::string_view value) {
            fn(ChangelogEntryKey(cf, key), value);
          }));
  if (done) snapshot_streamed_ = true;
  return done;
}

Status RocksShard::ForEachStoredChange(Offset next_offset, const ChangeFn& fn) {
  fn(ChangelogSnapshotKey(), EncodeChangelogSnapshot(next_offset));
  std::vector<Cf> families = {kUrlCf, kExactCf, kNearCf};
  // The stored pages first; the dirty ones follow, and the later record of a
  // page is the one that counts.
  if (options_.url_mode == UrlMode::kBloom) families.push_back(kBloomCf);
  PS_RETURN_IF_ERROR(ForEachStoredInRange(
      db_.get(), kMetaCf, kHeldPrefix, kHeldEnd,
      [&](std::string_view key, std::string_view value) {
        fn(ChangelogEntryKey(kMetaCf, key), value);
      }));
  return ForEachStoredEntry(
      db_.get(), families,
      [&](Cf cf, std::string_view value) { return sweep_.IsDead(cf, value, ExpireAt()); }, fn);
}

Status RocksShard::PublishDurableWatermark() {
  if (!env_->options.sync && ++unsynced_ < kCheckpointsPerWalSync) return Status::Ok();
  if (!env_->options.sync) {
    PS_RETURN_IF_ERROR(db_->SyncWal());
    unsynced_ = 0;
  }
  durable_->Publish(ToMillis(ExpireAt()));
  return Status::Ok();
}

ShardStats RocksShard::Stats() const {
  ShardStats stats;
  stats.watermark = watermark_;
  stats.checkpointed_offset = checkpointed_;
  stats.fingerprint_version = options_.fingerprint_version;
  stats.near_tables = layout_.tables();
  stats.near_index_entries = near_.index_size();
  stats.near_index_memory_bytes = near_.index_memory_bytes();
  stats.near_index_rows = near_.index_rows();
  if (bands_) {
    stats.lsh_bands = bands_->bands();
    stats.lsh_rows = bands_->rows();
  }
  stats.lsh_index_entries = near_.lsh_index_size();
  stats.lsh_index_memory_bytes = near_.lsh_index_memory_bytes();
  stats.lsh_index_rows = near_.lsh_index_rows();
  stats.pending_writes = db_->pending_writes();
  stats.bloom_memory_bytes = bloom_->MemoryBytes();
  stats.bloom_fill_ratio = bloom_->FillRatio();
  stats.bloom_false_positive_rate = bloom_->EstimatedFalsePositiveRate();
  rocksdb::DB* db = db_->db();
  auto property = [&](Cf cf, const char* name) {
    uint64_t v = 0;
    return db->GetIntProperty(db_->handle(cf), name, &v) ? v : 0;
  };
  stats.url_entries = property(kUrlCf, "rocksdb.estimate-num-keys");
  stats.exact_entries = property(kExactCf, "rocksdb.estimate-num-keys");
  stats.near_entries = property(kNearCf, "rocksdb.estimate-num-keys");
  for (int cf = 0; cf < kNumCfs; ++cf) {
    stats.disk_bytes += property(static_cast<Cf>(cf), "rocksdb.live-sst-files-size");
    stats.memtable_bytes += property(static_cast<Cf>(cf), "rocksdb.size-all-mem-tables");
    stats.pending_compaction_bytes +=
        property(static_cast<Cf>(cf), "rocksdb.estimate-pending-compaction-bytes");
  }
  return stats;
}

}  // namespace pagesieve::store
