#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/digest.h"
#include "common/status_or.h"
#include "common/types.h"
#include "store/bloom/bloom_options.h"
#include "store/lsh_bands.h"
#include "store/shard.h"
#include "store/shard_options.h"

namespace pagesieve::store {

class ShardDb;
class TimeDecayedFilter;

// What a shard was created as (stored in it, checked at every open).
struct ShardIdentityInfo {
  int64_t format_version = 0;
  int64_t fingerprint_version = 0;
  int near_max_distance = 0;
  int near_blocks = 0;
  int near_tables = 0;
};

// One store's figures. RocksDB's estimate is cheap and counts expired
// entries not yet compacted away (and overwritten keys more than once); a
// scan (ShardInspector::CountEntries) gives exact numbers.
struct StoreFigures {
  uint64_t estimated_entries = 0;
  uint64_t sst_bytes = 0;
  std::optional<uint64_t> stored;  // keys on disk, from a scan
  std::optional<uint64_t> live;    // of those, live at the watermark (entry stores only)
  // near only: of the live ones, those with a sketch the configured LSH
  // bands index (what a running pagesieve's LSH index holds).
  std::optional<uint64_t> banded;
  // near only: the index rows the live entries hold, of all they could
  // (every SimHash table; every band of the banded ones). Fewer than all in
  // a routed near owner's shard, which holds only its keys' rows.
  struct IndexRows {
    uint64_t simhash = 0, simhash_of = 0;
    uint64_t lsh = 0, lsh_of = 0;
  };
  std::optional<IndexRows> index_rows;
  // near only: the entries kept whole (origin and sketch), live or not:
  // every stored one of a shard that is not a routed near owner's; a
  // routed owner's home entries and the rows it wrote whole, its other
  // rows being slim (docs/global-routing.md, "The stages").
  std::optional<uint64_t> whole;
};

// The LSH bands a pagesieve with the configured near.minhash_slots,
// near.minhash_bits and near.jaccard builds over the near entries' sketches.
// Not stored: the index is rebuilt at every open.
struct LshFigures {
  int slots = 0;
  int bits = 0;
  double threshold = 0;
  int bands = 0;
  int rows = 0;
};

// The URL Bloom filter as the last checkpoint stored it.
struct BloomFigures {
  FilterKind kind = FilterKind::kBloom;  // url.filter it was built by
  BloomOptions options;         // what it was built for
  bool matches_config = false;  // false: url.mode = exact rebuilds it at the next open
  uint64_t memory_bytes = 0;
  double fill_ratio = 0;
  double estimated_false_positive_rate = 0;
  int live_generations = 0;
};

// Figures of one shard for operators.
struct ShardReport {
  std::string dir;
  ShardIdentityInfo identity;
  EventTime watermark{};
  std::optional<Offset> checkpointed_offset;  // next input offset; empty before any checkpoint
  StoreFigures url, exact, near;
  uint64_t sst_bytes = 0;  // live SST files of every column family
  uint64_t dir_bytes = 0;  // every file in the directory: SSTs, WAL, manifest
  std::optional<BloomFigures> bloom;
  std::optional<LshFigures> lsh;  // empty when near.minhash_slots = 0
};

// A stored entry, live or not, judged at the shard's watermark with the
// configured TTL of its store.
template <typename Entry>
struct Inspected {
  Entry entry;
  bool live = false;
  EventTime live_until{};  // the watermark past which it is dead: last_seen + ttl
};

// What the URL store holds for one (scope, URL digest).
struct UrlInspection {
  std::optional<bool> bloom_may_contain;     // empty: the shard stores no filter
  std::optional<Inspected<UrlEntry>> entry;  // url.mode = exact only
};

// A read-only view of one shard on disk, for `pagesieve state`.
//
// Opens RocksDB read-only: it takes no LOCK and writes nothing (not even an
// info log), so it works on the shards of a running pagesieve and shows
// their last checkpoint as of Open(). Unlike RocksShard it never rebuilds
// anything and returns expired entries too, marked as such. Entries are
// judged with the TTLs of `configured` (TTLs are configuration, not stored).
//
// Not thread-safe; cheap to open and close one shard after another.
class ShardInspector {
 public:
  // NotFound when `dir` holds no database; FailedPrecondition when it is
  // not a pagesieve shard or of another storage format.
  static StatusOr<std::unique_ptr<ShardInspector>> Open(const std::string& dir,
                                                        const ShardOptions& configured);
  ~ShardInspector();
  ShardInspector(const ShardInspector&) = delete;
  ShardInspector& operator=(const ShardInspector&) = delete;

  const std::string& dir() const;
  const ShardIdentityInfo& identity() const { return identity_; }
  EventTime watermark() const { return watermark_; }
  std::optional<Offset> checkpointed_offset() const { return checkpointed_; }

  // Identity, progress, RocksDB's estimates and sizes, and the Bloom filter
  // (loaded from its pages: about 1.2 bytes per expected URL at 1 %).
  StatusOr<ShardReport> Report();
  // Fills `stored` and `live` of each store by scanning every key.
  Status CountEntries(ShardReport* report);

  StatusOr<UrlInspection> InspectUrl(std::string_view scope, const Digest128& url);
  StatusOr<std::optional<Inspected<ContentEntry>>> InspectContent(std::string_view scope,
                                                                  const Digest128& content);
  // Every stored SimHash of the scope within `max_distance` (0..64), live or
  // not, closest first, then earliest origin, with its sketch: the live ones
  // are what FindNear()'s SimHash tables find (in_tables; in_bands is left
  // false, as there is no query sketch), but in a routed near owner's
  // shard, which finds an entry only by the rows it holds (NearRows). Scans
  // every entry of the scope (the indexes are the writer's, in its memory).
  StatusOr<std::vector<Inspected<NearCandidate>>> InspectNear(std::string_view scope,
                                                              uint64_t simhash, int max_distance);

 private:
  ShardInspector(std::unique_ptr<ShardDb> db, const ShardOptions& configured);
  StatusOr<const TimeDecayedFilter*> Bloom();
  StatusOr<std::vector<uint64_t>> ScopeCandidates(uint64_t scope_id, uint64_t simhash,
                                                  int max_distance);
  StatusOr<StoreFigures> Count(int cf, std::optional<Duration> ttl);
  // Whether a live near value's sketch is one the configured bands index.
  bool Banded(std::string_view sketch) const;
  // Counts a live near value's index rows into `rows`; true if banded.
  bool CountRows(std::string_view near_value, StoreFigures::IndexRows* rows) const;

  std::unique_ptr<ShardDb> db_;
  const ShardOptions configured_;
  std::optional<LshBands> bands_;  // of configured_; none without sketches
  ShardIdentityInfo identity_;
  EventTime watermark_{};
  std::optional<Offset> checkpointed_;
  bool bloom_loaded_ = false;
  std::unique_ptr<TimeDecayedFilter> bloom_;  // null when the shard stores none
};

// A shard directory under a state directory.
struct ShardDirEntry {
  std::string name;  // "<topic>-<partition>", or "dedup" for pagesieve dedup
  std::string path;
};

// The shards under `state_dir`: its subdirectories holding a RocksDB
// database, ordered by name with partition numbers compared as numbers.
// `state_dir` itself when it is a shard. NotFound when it does not exist.
StatusOr<std::vector<ShardDirEntry>> FindShards(const std::string& state_dir);

}  // namespace pagesieve::store
