#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

#include "common/digest.h"
#include "common/status_or.h"
#include "common/types.h"
#include "store/origin.h"

namespace pagesieve::store {

// What a URL lookup knows. In url.mode = exact, `seen` is true exactly when
// `entry` is set. In url.mode = bloom, `entry` is never set and `seen` is the
// Bloom filter's answer (false positives at the configured rate).
struct UrlEntry {
  Origin origin;  // first record seen with this URL (while it stayed live)
  EventTime last_seen{};
  Digest128 content;  // content digest of the latest record seen at this URL
};
struct UrlLookup {
  bool seen = false;
  std::optional<UrlEntry> entry;
};

struct ContentEntry {
  Origin origin;
  EventTime last_seen{};
};

struct NearMatch {
  uint64_t simhash = 0;  // the stored fingerprint that matched
  int distance = 0;      // Hamming distance to the query
  Origin origin;
  EventTime last_seen{};
};

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

// Lookups of the record at (partition, offset) ignore entries created by
// later records of the same partition: when state is ahead of the input (a
// replay), the record sees what it saw the first time. An empty filter
// accepts everything.
struct OriginFilter {
  std::optional<PartitionId> partition;
  Offset offset{};

  bool Accepts(const Origin& o) const {
    return !partition || o.partition != *partition || o.offset <= offset;
  }
};

// The state of one input partition: three stores, a watermark, and the input
// offset of the last checkpoint, all in one RocksDB instance.
//
// Contract (docs/architecture.md): lookups see every write since the shard
// was opened, checkpointed or not; Checkpoint() makes them durable atomically
// with the watermark and the next input offset; lookups never return an
// entry that is dead at the current watermark.
//
// Not thread-safe: one partition's records are decided in order by one
// thread at a time. Different shards may be used from different threads.
class Shard {
 public:
  virtual ~Shard() = default;

  // The largest event time observed so far (the epoch before any).
  virtual EventTime watermark() const = 0;
  // Raises the watermark to `t` if `t` is later; never lowers it. (The
  // RocksDB shard's writes also observe the event time they write.)
  virtual void ObserveEventTime(EventTime t) = 0;

  // --- URL store ---
  virtual StatusOr<UrlLookup> LookupUrl(std::string_view scope, const Digest128& url,
                                        const OriginFilter& filter = {}) = 0;
  // Records that a record saw `url` at `t` with `content`. Creates the entry
  // with `origin` when there is no live one; otherwise slides last_seen to
  // `t` and stores `content`, keeping the existing origin.
  virtual Status RecordUrl(std::string_view scope, const Digest128& url, const Origin& origin,
                           EventTime t, const Digest128& content) = 0;

  // --- Exact-hash store ---
  virtual StatusOr<std::optional<ContentEntry>> LookupContent(std::string_view scope,
                                                              const Digest128& content,
                                                              const OriginFilter& filter = {}) = 0;
  virtual Status InsertContent(std::string_view scope, const Digest128& content,
                               const Origin& origin) = 0;
  // Slides the entry's last_seen to `t` (a duplicate matched it).
  virtual Status TouchContent(std::string_view scope, const Digest128& content, EventTime t) = 0;

  // --- SimHash store ---
  // The closest live entry within `max_distance` bits (ties: the earliest
  // origin), or nothing. `max_distance` may not exceed the distance the
  // shard's tables were built for (ShardOptions::near_max_distance).
  virtual StatusOr<std::optional<NearMatch>> FindNear(std::string_view scope, uint64_t simhash,
                                                      int max_distance,
                                                      const OriginFilter& filter = {}) = 0;
  virtual Status InsertNear(std::string_view scope, uint64_t simhash, const Origin& origin) = 0;
  virtual Status TouchNear(std::string_view scope, uint64_t simhash, EventTime t) = 0;

  // --- Durability ---
  // Atomically persists every change since the last checkpoint, the dirty
  // Bloom pages, the watermark and `next_offset` (the first input offset not
  // yet reflected in the state).
  virtual Status Checkpoint(Offset next_offset) = 0;
  // The next_offset of the last durable checkpoint; empty for a new shard.
  virtual std::optional<Offset> checkpointed_offset() const = 0;

  // --- Changelog (docs/changelog.md) ---
  // Calls `fn` with the changelog records of a checkpoint at `next_offset`:
  // every entry written since the last checkpoint, a tombstone for every key
  // compaction removed as expired since then (and not written again), a
  // tombstone for every dead entry a slice of the stored state holds (the
  // checkpoint deletes them), and last the marker. From the first call on,
  // compaction collects expired keys for this. Changes nothing the shard
  // answers.
  // `fn`'s arguments are valid during the call only.
  virtual Status ForEachChange(
      Offset next_offset,
      const std::function<void(std::string_view key, std::optional<std::string_view> value)>& fn) {
    (void)next_offset;
    (void)fn;
    return Status::FailedPrecondition("this shard has no changelog");
  }
  // The changelog offset after the records of the next checkpoint, saved
  // with it.
  virtual void SetChangelogNext(Offset changelog_next) { (void)changelog_next; }
  // The changelog offset after the last durable checkpoint's records; empty
  // when the shard never wrote or read a changelog.
  virtual std::optional<Offset> changelog_next() const { return std::nullopt; }

  // Operator figures. The default knows only what the interface does, so
  // other implementations (test fakes) need not provide it.
  virtual ShardStats Stats() const {
    ShardStats stats;
    stats.watermark = watermark();
    stats.checkpointed_offset = checkpointed_offset();
    return stats;
  }
};

}  // namespace pagesieve::store
