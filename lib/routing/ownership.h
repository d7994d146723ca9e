#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/digest.h"
#include "common/status_or.h"
#include "common/types.h"

namespace pagesieve::store {
class LshBands;
class NearLayout;
}  // namespace pagesieve::store

namespace pagesieve::routing {

// What a routed key looks up (docs/global-routing.md, "The idea").
enum class KeyKind : uint8_t { kUrl = 1, kContent = 2, kTable = 3, kBand = 4 };

// Jump consistent hash (Lamping and Veach, "A Fast, Minimal Memory,
// Consistent Hash Algorithm", 2014): spreads keys evenly over `buckets`, and
// when buckets are added a key either keeps its bucket or moves to a new
// one. `buckets` >= 1.
int32_t JumpConsistentHash(uint64_t key, int32_t buckets);

// Which partition of a routed stage's topic owns a key: jump consistent
// hash of XXH3-64 over (kind, table or band number, scope, key). The
// placement is part of the state's layout, like the shard's key encoding:
// changing it moves every entry, so it is pinned by tests. Immutable.
class Ownership {
 public:
  // InvalidArgument unless 1 <= partitions <= 2^31 - 1.
  static StatusOr<Ownership> Create(int64_t partitions);

  int32_t partitions() const { return partitions_; }

  PartitionId OfUrl(std::string_view scope, const Digest128& url) const;
  PartitionId OfContent(std::string_view scope, const Digest128& content) const;
  // A SimHash entry's row in `table`: the table's prefix of its fingerprint.
  PartitionId OfTable(std::string_view scope, int table, uint64_t prefix) const;
  // A MinHash entry's row in `band`: the band's key of its sketch.
  PartitionId OfBand(std::string_view scope, int band, uint64_t band_key) const;

 private:
  explicit Ownership(int32_t partitions) : partitions_(partitions) {}
  PartitionId Place(KeyKind kind, int index, std::string_view scope, std::string_view key) const;

  int32_t partitions_ = 1;
};

// One near key of a record: a SimHash table's prefix or an LSH band's key.
struct NearKey {
  KeyKind kind = KeyKind::kTable;  // kTable or kBand
  int index = 0;                   // the table's or band's number
  uint64_t value = 0;              // the prefix or band key

  friend bool operator==(const NearKey&, const NearKey&) = default;
};

// The near keys one owner partition answers for a record.
struct NearProbe {
  PartitionId owner;
  std::vector<NearKey> keys;  // tables first, then bands, each ascending
};

// A record's near probes: one key per table of `layout` (the prefix of
// `simhash`) and, when `bands` is given and `sketch` fits it, one per LSH
// band; grouped by owner, owners ascending. Each owner gets one probe
// however many of the record's keys it owns, so a record sends at most
// min(tables + bands, partitions) probes.
std::vector<NearProbe> PlanNearProbes(const Ownership& ownership, std::string_view scope,
                                      uint64_t simhash, std::string_view sketch,
                                      const store::NearLayout& layout,
                                      const store::LshBands* bands);

}  // namespace pagesieve::routing
