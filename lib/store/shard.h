#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "common/status_or.h"
#include "common/types.h"
#include "store/near_rows.h"
#include "store/tier_stores.h"

namespace pagesieve::store {

// Figures about one shard for operators (metrics, status pages).
struct ShardStats {
  EventTime watermark{};
  std::optional<Offset> checkpointed_offset;
  int fingerprint_version = 0;
  // RocksDB's estimates of stored entries: they include expired entries not
  // yet removed by compaction.
  uint64_t url_entries = 0;
  uint64_t exact_entries = 0;
  uint64_t near_entries = 0;
  int near_tables = 0;  // SimHash tables of the in-memory index
  // SimHashes in that index (per table: expired ones wait for their
  // generation to go, touched ones may be there twice) and its heap bytes.
  uint64_t near_index_entries = 0;
  uint64_t near_index_memory_bytes = 0;
  // Their rows, summed over the tables (entries times tables, but for a
  // routed near owner, which holds its share of each entry's rows).
  uint64_t near_index_rows = 0;
  // The LSH bands of the near store's sketches (0 bands: no sketches are
  // indexed, near.minhash_slots = 0); the entries in their in-memory index
  // (expired ones wait for their generation to go, touched ones may be there
  // twice) and its heap bytes.
  int lsh_bands = 0;
  int lsh_rows = 0;
  uint64_t lsh_index_entries = 0;
  uint64_t lsh_index_memory_bytes = 0;
  uint64_t lsh_index_rows = 0;  // summed over the bands, as near_index_rows
  uint64_t disk_bytes = 0;      // live SST files
  uint64_t memtable_bytes = 0;  // from the shared write-buffer budget
  // RocksDB's estimate of the bytes compaction must rewrite to bring every
  // level under its target size: grows when writes outrun compaction.
  uint64_t pending_compaction_bytes = 0;
  uint64_t pending_writes = 0;  // keys written since the last checkpoint
  uint64_t bloom_memory_bytes = 0;
  double bloom_fill_ratio = 0;
  double bloom_false_positive_rate = 0;  // estimated from the fill ratio
};

// Where a snapshot shipped in pieces stands (Shard::ForEachSnapshotChange).
// Start with a default one.
struct SnapshotCursor {
  bool begun = false;
  size_t range = 0;   // the stored range walked now
  std::string after;  // the last key visited in it, when `visited`
  bool visited = false;
};

// The state of one input partition, durable: the tier stores (what the
// engine reads and writes), a watermark, and the input offset of the last
// checkpoint, all in one RocksDB instance; and the changelog records that let
// another machine rebuild it (docs/changelog.md).
//
// Contract (docs/architecture.md): Checkpoint() makes every write since the
// last one durable atomically with the watermark and the next input offset;
// reopening after a crash at any instant yields exactly the last checkpoint.
//
// Every method is pure: an implementation (or a decorator) that forgets one
// does not compile. Not thread-safe, like TierStores.
class Shard : public TierStores {
 public:
  // --- Durability ---
  // Atomically persists every change since the last checkpoint, the dirty
  // Bloom pages, the watermark and `next_offset` (the first input offset not
  // yet reflected in the state).
  virtual Status Checkpoint(Offset next_offset) = 0;
  // The next_offset of the last durable checkpoint; empty for a new shard.
  virtual std::optional<Offset> checkpointed_offset() const = 0;
  // Routed dedup (docs/global-routing.md, "Expiry"): while set, nothing
  // live at `t` is removed (checkpoint sweeps, compaction, the SimHash
  // index's generations), even when it is dead at the watermark, because an
  // owner still has records of that time in flight and judges liveness at
  // their read points (TierStores::SetReadPoint). nullopt: expire at the
  // watermark, as the single-partition engine always does.
  virtual void HoldExpiry(std::optional<EventTime> t) = 0;

  // --- A routed near owner's share (docs/global-routing.md) ---
  // InsertNear that indexes only `rows` of the entry: the SimHash tables
  // and LSH bands whose keys the owner owns. The entry's other rows are
  // another owner's, which finds it by them. A live entry there is touched
  // instead, keeping its rows. `home`: the owner is the entry's home (the
  // owner of its table-0 key), which also keeps each incarnation whole for
  // the content owners' fetches (NearHomeEntry).
  virtual Status InsertNearRows(std::string_view scope, uint64_t simhash, std::string_view sketch,
                                const Origin& origin, const NearRows& rows, bool home) = 0;
  // TouchNear at the entry's home: the whole incarnation slides too.
  virtual Status TouchNearHome(std::string_view scope, uint64_t simhash, EventTime t) = 0;
  // The incarnation of (scope, simhash) created by the record at `at`,
  // whole (its SimHash, origin, last_seen and sketch; no distance), live or
  // not, while this home still holds it; none when its insert has not come
  // yet.
  virtual StatusOr<std::optional<NearCandidate>> NearHomeEntry(std::string_view scope,
                                                          uint64_t simhash,
                                                          const OriginPosition& at) = 0;

  // --- Held messages (routed owners, docs/global-routing.md) ---
  // A routed owner's unfinished work (a record in its queue, a probe
  // waiting for its outcome, a source's promise), kept by the owner's own
  // key. Written and deleted like entries: durable with the next
  // checkpoint, shipped in the changelog, never expired, and forgotten by a
  // reset. A restored owner rebuilds its queue from them.
  using HeldFn = std::function<void(std::string_view key, std::string_view value)>;
  virtual void PutHeld(std::string_view key, std::string value) = 0;
  virtual void DeleteHeld(std::string_view key) = 0;
  // Every held message, by key: the last checkpoint's with the writes since.
  virtual Status ForEachHeld(const HeldFn& fn) = 0;

  // --- Changelog (docs/changelog.md) ---
  using ChangeFn = std::function<void(std::string_view key, std::optional<std::string_view> value)>;
  // Calls `fn` with the changelog records of a checkpoint at `next_offset`:
  // every entry written since the last checkpoint, a tombstone for every key
  // compaction removed as expired since then (and not written again), a
  // tombstone for every dead entry a slice of the stored state holds (the
  // checkpoint deletes them), and last the marker. When ships_snapshot(),
  // first the snapshot record and every live entry stored before. From the first call on,
  // compaction collects expired keys for this. Changes nothing the shard
  // answers. `fn`'s arguments are valid during the call only.
  virtual Status ForEachChange(Offset next_offset, const ChangeFn& fn) = 0;
  // Seeding in pieces (docs/changelog.md, "Seeding"), so that a large
  // shard's snapshot is never held in memory whole nor walked in one go on
  // the partition's thread: while ships_snapshot(), gives the records of the
  // snapshot (the snapshot record, then every held message and live stored
  // entry), visiting at most `max_keys` stored keys per call from where
  // `*cursor` stands; true once all are given. ForEachChange() for the same
  // checkpoint then gives the rest without the snapshot. The shard must not
  // change in between (the lane processes nothing while it ships).
  virtual StatusOr<bool> ForEachSnapshotChange(Offset next_offset, SnapshotCursor* cursor,
                                               size_t max_keys, const ChangeFn& fn) = 0;
  // Reads up to `max_keys` stored keys of the next checkpoint's expiry
  // sweep now, while the shard is idle, so that the checkpoint (during
  // which its partition decides nothing) has that much less to read
  // (ExpirySweep::WalkAhead). Changes nothing the shard answers; does
  // nothing until the shard ships a changelog.
  virtual Status SweepAhead(size_t max_keys) = 0;
  // The changelog offset after the records of the next checkpoint, saved
  // with it.
  virtual void SetChangelogNext(Offset changelog_next) = 0;
  // The changelog offset after the last durable checkpoint's records; empty
  // when the shard never wrote or read a changelog, or when a checkpoint was
  // made without shipping (the changelog was off).
  virtual std::optional<Offset> changelog_next() const = 0;
  // Whether the next ForEachChange() ships the whole shard, behind a
  // snapshot record, rather than what changed: the shard has a checkpoint
  // and no changelog position, so the changelog has not received it (it was
  // kept with the changelog off, or the changelog lost it). Seeding.
  virtual bool ships_snapshot() const = 0;

  // --- Operator figures (metrics, `pagesieve state stats`) ---
  virtual ShardStats Stats() const = 0;
};

}  // namespace pagesieve::store
