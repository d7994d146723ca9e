#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "store/codec.h"
#include "store/shard.h"
#include "store/shard_db.h"
#include "store/simhash_tables.h"

namespace pagesieve::store {

// How far the time stored in an entry's table keys may trail its real
// last_seen. Touching an entry only rewrites its primary value until the
// gap would exceed this; then every table key is rewritten once. The
// compaction filter of the table keys waits ttl + grace, so it never removes
// the keys of a live entry, and dead table keys linger at most `grace`.
inline Duration NearTableGrace(Duration ttl) { return std::max(ttl / 8, Duration(1)); }

// The SimHash store of one shard: primary entries (scope, simhash) → origin,
// last_seen in the near column family, and NearLayout::tables() permuted
// keys per entry in near_tables, scanned by prefix to find candidates.
// Not thread-safe (part of one shard).
class NearStore {
 public:
  NearStore(ShardDb* db, const NearLayout* layout, Duration ttl, const EventTime* watermark);

  StatusOr<std::optional<NearMatch>> Find(uint64_t scope_id, uint64_t simhash, int max_distance,
                                          const OriginFilter& filter);
  Status Insert(uint64_t scope_id, uint64_t simhash, const Origin& origin);
  Status Touch(uint64_t scope_id, uint64_t simhash, EventTime t);
  // The overlay was committed: forget the table keys written before.
  void OnCommit() { pending_probes_.clear(); }

 private:
  struct Candidate {
    int distance;
    uint64_t simhash;
    friend bool operator<(const Candidate& a, const Candidate& b) {
      return a.distance != b.distance ? a.distance < b.distance : a.simhash < b.simhash;
    }
    friend bool operator==(const Candidate&, const Candidate&) = default;
  };

  Status Collect(uint64_t scope_id, uint64_t simhash, int max_distance);
  Status ScanDb(std::string_view probe, uint64_t simhash, int max_distance);
  void ScanPending(std::string_view probe, uint64_t simhash, int max_distance);
  // The live entry of (scope, simhash) accepted by `filter`, if any.
  StatusOr<std::optional<NearEntry>> LiveEntry(uint64_t scope_id, uint64_t simhash,
                                               const OriginFilter& filter);
  void WriteTables(uint64_t scope_id, uint64_t simhash, EventTime refreshed);
  void PutEntry(uint64_t scope_id, uint64_t simhash, const NearEntry& entry);

  ShardDb* db_;
  const NearLayout* layout_;
  const Duration ttl_;
  const Duration grace_;
  const EventTime* watermark_;
  // Table keys written since the last commit, by probe prefix: the database
  // iterator cannot see them.
  std::unordered_map<std::string, std::vector<uint64_t>> pending_probes_;
  std::vector<Candidate> candidates_;  // reused across calls
};

}  // namespace pagesieve::store
