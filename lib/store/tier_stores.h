#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/digest.h"
#include "common/status_or.h"
#include "common/types.h"
#include "store/origin.h"

namespace pagesieve::store {

// What a URL lookup knows. In url.mode = exact, `seen` is true exactly when
// `entry` is set. In url.mode = bloom, `entry` is never set and `seen` is the
// Bloom filter's answer (false positives at the configured rate).
//
// A URL entry also keeps its last write: which record last recorded the URL
// and the content digest the entry held before that. A record that finds
// itself as the last writer (state already holds its write: a replay)
// compares its content with that previous digest, as it did the first time.
struct UrlWrite {
  PartitionId partition{};
  Offset offset{};
  // The entry's digest before this write; the writer's own when it created
  // the entry.
  Digest128 previous_content;

  bool IsRecord(PartitionId p, Offset o) const { return partition == p && offset == o; }
  friend bool operator==(const UrlWrite&, const UrlWrite&) = default;
};
struct UrlEntry {
  Origin origin;  // first record seen with this URL (while it stayed live)
  EventTime last_seen{};
  Digest128 content;  // content digest of the latest record seen at this URL
  // Empty in entries written before storage format 4.
  std::optional<UrlWrite> last_write;
};
struct UrlLookup {
  bool seen = false;
  std::optional<UrlEntry> entry;
};

struct ContentEntry {
  Origin origin;
  EventTime last_seen{};
};

// A near-duplicate lookup: the SimHash tables within `max_distance` bits of
// `simhash`, and, when `sketch` is given, the LSH bands of that MinHash
// sketch (docs/state-store.md, "Near store").
struct NearQuery {
  uint64_t simhash = 0;
  // At most the distance the shard's tables were built for
  // (ShardOptions::near_max_distance).
  int max_distance = 0;
  // An encoded MinHash sketch (fingerprint::MinHashSketch::Encode); empty,
  // or of other parameters than the shard's LSH bands: no band lookup.
  std::string_view sketch;
};

// A live entry a near lookup found, with what the rules need to judge it.
struct NearCandidate {
  uint64_t simhash = 0;    // the stored fingerprint
  int distance = 0;        // its Hamming distance to the query's SimHash
  bool in_tables = false;  // within the query's max_distance
  bool in_bands = false;   // shares an LSH band with the query's sketch
  Origin origin;
  EventTime last_seen{};
  std::string sketch;  // the entry's encoded MinHash sketch; empty when it has none

  friend bool operator==(const NearCandidate&, const NearCandidate&) = default;
};

// The order FindNear returns candidates in: closest first, then the earliest
// origin (event time, partition, offset); the SimHash makes it a total order,
// so a replay ranks the same candidates the same way (near_find.cc).
bool RanksBefore(const NearCandidate& a, const NearCandidate& b);

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

// The dedup tiers' stores of one partition as the rules use them: look up
// and record per tier, and the watermark that expires their entries. This
// is all the engine sees of a shard (lib/engine/decider.h); durability and
// the changelog are the Shard's business (shard.h).
//
// Contract (docs/architecture.md): lookups see every write made so far,
// checkpointed or not, and never return an entry that is dead at the
// current watermark.
//
// Not thread-safe: one partition's records are decided in order by one
// thread at a time.
class TierStores {
 public:
  virtual ~TierStores() = default;

  // The largest event time observed so far (the epoch before any).
  virtual EventTime watermark() const = 0;
  // Raises the watermark to `t` if `t` is later; never lowers it. (The
  // RocksDB shard's writes also observe the event time they write.)
  virtual void ObserveEventTime(EventTime t) = 0;
  // Routed dedup (docs/global-routing.md, "Expiry"): while set, whether an
  // entry is live is judged at `t` instead of the watermark, by lookups and
  // writes alike, so an owner that decides a record after it took later
  // ones sees the entries as they were at the record's place in the order.
  // The watermark itself, which sweeps and index generations go by, moves
  // as before. nullopt clears it. The single-partition engine never sets it.
  virtual void SetReadPoint(std::optional<EventTime> t) = 0;

  // --- URL store ---
  virtual StatusOr<UrlLookup> LookupUrl(std::string_view scope, const Digest128& url,
                                        const OriginFilter& filter = {}) = 0;
  // Records that a record saw `url` at `t` with `content`. Creates the entry
  // with `origin` when there is no live one; otherwise slides last_seen to
  // `t` and stores `content`, keeping the existing origin. The record at
  // `origin`'s position becomes the entry's last writer; when it already
  // was (a replay), the previous digest stays the one it replaced the first
  // time, so recording a record again changes nothing.
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

  // --- Near store (SimHash tables and MinHash LSH bands) ---
  // Every live entry of `scope` accepted by `filter` that the SimHash tables
  // (within query.max_distance) or the LSH bands (sharing a band with
  // query.sketch) find, each once, sorted by distance, then by earliest
  // origin (event time, partition, offset). Which of them is a duplicate is
  // the rules' call (lib/engine/decider.cc).
  virtual StatusOr<std::vector<NearCandidate>> FindNear(std::string_view scope,
                                                        const NearQuery& query,
                                                        const OriginFilter& filter = {}) = 0;
  // Inserts (scope, simhash) with `origin` and the encoded MinHash `sketch`
  // (empty: none); a live entry there is touched instead.
  virtual Status InsertNear(std::string_view scope, uint64_t simhash, std::string_view sketch,
                            const Origin& origin) = 0;
  virtual Status TouchNear(std::string_view scope, uint64_t simhash, EventTime t) = 0;
};

}  // namespace pagesieve::store
