#pragma once

#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "store/time_decayed_filter.h"
#include "store/exact_store.h"
#include "store/expired_keys.h"
#include "store/expiry.h"
#include "store/expiry_sweep.h"
#include "store/keys.h"
#include "store/lsh_bands.h"
#include "store/near_store.h"
#include "store/rocks_options.h"
#include "store/shard.h"
#include "store/shard_db.h"
#include "store/shard_options.h"
#include "store/simhash_tables.h"
#include "store/url_store.h"

namespace pagesieve::store {

// The Shard on RocksDB (docs/state-store.md): one instance per partition,
// one column family per store, writes buffered in ShardDb's overlay until
// Checkpoint() commits them with the watermark and the offset.
//
// Not thread-safe (see Shard). After a failed checkpoint every call returns
// that error: the in-memory state is ahead of the durable one, and only
// reopening (back at the last checkpoint) is safe.
class RocksShard final : public Shard {
 public:
  // `stop`: see StateEnv::OpenShard.
  static StatusOr<std::unique_ptr<Shard>> Open(std::shared_ptr<const StateEnv::Resources> env,
                                               const std::string& dir, const ShardOptions& options,
                                               std::stop_token stop = {});

  EventTime watermark() const override { return watermark_; }
  void ObserveEventTime(EventTime t) override;
  void SetReadPoint(std::optional<EventTime> t) override;

  StatusOr<UrlLookup> LookupUrl(std::string_view scope, const Digest128& url,
                                const OriginFilter& filter) override;
  Status RecordUrl(std::string_view scope, const Digest128& url, const Origin& origin, EventTime t,
                   const Digest128& content) override;

  StatusOr<std::optional<ContentEntry>> LookupContent(std::string_view scope,
                                                      const Digest128& content,
                                                      const OriginFilter& filter) override;
  Status InsertContent(std::string_view scope, const Digest128& content,
                       const Origin& origin) override;
  Status TouchContent(std::string_view scope, const Digest128& content, EventTime t) override;

  StatusOr<std::vector<NearCandidate>> FindNear(std::string_view scope, const NearQuery& query,
                                                const OriginFilter& filter) override;
  Status InsertNear(std::string_view scope, uint64_t simhash, std::string_view sketch,
                    const Origin& origin) override;
  Status TouchNear(std::string_view scope, uint64_t simhash, EventTime t) override;
  Status TouchNearHome(std::string_view scope, uint64_t simhash, EventTime t) override;
  StatusOr<std::optional<NearCandidate>> NearHomeEntry(std::string_view scope, uint64_t simhash,
                                                      const OriginPosition& at) override;
  Status InsertNearRows(std::string_view scope, uint64_t simhash, std::string_view sketch,
                        const Origin& origin, const NearRows& rows, bool home) override;

  Status Checkpoint(Offset next_offset) override;
  void HoldExpiry(std::optional<EventTime> t) override { expiry_hold_ = t; }
  std::optional<Offset> checkpointed_offset() const override { return checkpointed_; }
  ShardStats Stats() const override;

  void PutHeld(std::string_view key, std::string value) override;
  void DeleteHeld(std::string_view key) override;
  Status ForEachHeld(const HeldFn& fn) override;

  Status SweepAhead(size_t max_keys) override;
  Status ForEachChange(Offset next_offset, const ChangeFn& fn) override;
  StatusOr<bool> ForEachSnapshotChange(Offset next_offset, SnapshotCursor* cursor,
                                       size_t max_keys, const ChangeFn& fn) override;
  void SetChangelogNext(Offset changelog_next) override { staged_changelog_next_ = changelog_next; }
  std::optional<Offset> changelog_next() const override { return changelog_next_; }
  bool ships_snapshot() const override { return checkpointed_ && !changelog_next_; }

 private:
  friend class ShardProbe;  // maintenance and diagnostics for tests and benchmarks

  RocksShard(std::shared_ptr<const StateEnv::Resources> env, const ShardOptions& options,
             const NearLayout& layout, std::optional<LshBands> bands,
             std::shared_ptr<DurableWatermark> durable, std::shared_ptr<ExpiredKeys> expired,
             std::unique_ptr<ShardDb> db, std::unique_ptr<TimeDecayedFilter> bloom);
  // Lets compaction remove what is dead at the watermark just committed,
  // once that watermark cannot be lost (see expiry.h).
  Status PublishDurableWatermark();
  // The snapshot record and every live entry of the last commit (seeding).
  Status ForEachStoredChange(Offset next_offset, const ChangeFn& fn);

  std::shared_ptr<const StateEnv::Resources> env_;
  const ShardOptions options_;
  const NearLayout layout_;
  const std::optional<LshBands> bands_;  // none when near.minhash_slots = 0
  std::shared_ptr<DurableWatermark> durable_;
  std::shared_ptr<ExpiredKeys> expired_;  // filled by compaction once a changelog asks
  std::unique_ptr<ShardDb> db_;
  std::unique_ptr<TimeDecayedFilter> bloom_;
  EventTime watermark_{};
  // What the stores judge liveness at: the watermark, or the read point
  // while one is set (SetReadPoint).
  EventTime live_at_{};
  std::optional<EventTime> read_point_;
  std::optional<EventTime> expiry_hold_;
  // What is dead at this may be removed: the watermark, or the hold when
  // one is set and earlier (HoldExpiry).
  EventTime ExpireAt() const {
    return expiry_hold_ && *expiry_hold_ < watermark_ ? *expiry_hold_ : watermark_;
  }
  // The hold the next checkpoint keeps: set and earlier than the watermark.
  std::optional<EventTime> Holding() const {
    if (expiry_hold_ && *expiry_hold_ < watermark_) return expiry_hold_;
    return std::nullopt;
  }
  // The hold the changelog holds, and the one the checkpoint being shipped
  // gives it.
  std::optional<EventTime> shipped_hold_, staged_shipped_hold_;
  bool hold_stored_ = false;  // the metadata holds a hold (only routed owners' shards)
  // ForEachSnapshotChange gave the whole snapshot: the next ForEachChange
  // gives the rest of the checkpoint only.
  bool snapshot_streamed_ = false;
  std::optional<Offset> checkpointed_;
  std::optional<Offset> changelog_next_, staged_changelog_next_;
  ScopeIdCache scopes_;
  UrlStore url_;
  ExactStore exact_;
  NearStore near_;
  ExpirySweep sweep_;      // deletes dead entries, with tombstones, when a changelog ships
  Status error_;           // sticky, set by a failed checkpoint
  uint64_t unsynced_ = 0;  // checkpoints since the WAL was last synced (sync = false)
};

}  // namespace pagesieve::store
