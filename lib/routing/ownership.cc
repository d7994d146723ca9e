#include "routing/ownership.h"

#include <xxhash.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "store/lsh_bands.h"
#include "store/simhash_tables.h"

namespace pagesieve::routing {
namespace {

// Changing the seed moves every routed entry: it is part of the layout.
constexpr uint64_t kOwnershipSeed = 0x70735f726f757465ull;  // "ps_route"

// Little-endian whatever the host, so that placement is the same everywhere.
std::string LittleEndian(uint64_t v) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return out;
}

}  // namespace

int32_t JumpConsistentHash(uint64_t key, int32_t buckets) {
  // The paper's loop: jump forward to the next bucket count at which the key
  // moves, drawing from a linear congruential generator seeded by the key.
  int64_t b = -1;
  int64_t j = 0;
  while (j < buckets) {
    b = j;
    key = key * 2862933555777941757ull + 1;
    j = static_cast<int64_t>(static_cast<double>(b + 1) *
                             (static_cast<double>(int64_t{1} << 31) /
                              static_cast<double>((key >> 33) + 1)));
  }
  return static_cast<int32_t>(b);
}

StatusOr<Ownership> Ownership::Create(int64_t partitions) {
  if (partitions < 1 || partitions > std::numeric_limits<int32_t>::max()) {
    return Status::InvalidArgument("routing: a routed topic needs at least one partition, got " +
                                   std::to_string(partitions));
  }
  return Ownership(static_cast<int32_t>(partitions));
}

PartitionId Ownership::Place(KeyKind kind, int index, std::string_view scope,
                             std::string_view key) const {
  // kind, the table or band number (little-endian, 2 bytes), the scope and
  // a NUL (scopes never hold one), then the key.
  std::string buf;
  buf.reserve(3 + scope.size() + 1 + key.size());
  buf.push_back(static_cast<char>(kind));
  buf.push_back(static_cast<char>(index & 0xff));
  buf.push_back(static_cast<char>((index >> 8) & 0xff));
  buf.append(scope);
  buf.push_back('\0');
  buf.append(key);
  const uint64_t h = XXH3_64bits_withSeed(buf.data(), buf.size(), kOwnershipSeed);
  return PartitionId(JumpConsistentHash(h, partitions_));
}

PartitionId Ownership::OfUrl(std::string_view scope, const Digest128& url) const {
  return Place(KeyKind::kUrl, 0, scope, url.View());
}

PartitionId Ownership::OfContent(std::string_view scope, const Digest128& content) const {
  return Place(KeyKind::kContent, 0, scope, content.View());
}

PartitionId Ownership::OfTable(std::string_view scope, int table, uint64_t prefix) const {
  return Place(KeyKind::kTable, table, scope, LittleEndian(prefix));
}

PartitionId Ownership::OfBand(std::string_view scope, int band, uint64_t band_key) const {
  return Place(KeyKind::kBand, band, scope, LittleEndian(band_key));
}

std::vector<NearProbe> PlanNearProbes(const Ownership& ownership, std::string_view scope,
                                      uint64_t simhash, std::string_view sketch,
                                      const store::NearLayout& layout,
                                      const store::LshBands* bands) {
  std::map<PartitionId, std::vector<NearKey>> by_owner;
  for (int t = 0; t < layout.tables(); ++t) {
    const uint64_t prefix = layout.Prefix(t, simhash);
    by_owner[ownership.OfTable(scope, t, prefix)].push_back({KeyKind::kTable, t, prefix});
  }
  std::vector<uint64_t> band_keys;
  if (bands != nullptr && bands->Keys(sketch, &band_keys)) {
    for (int b = 0; b < static_cast<int>(band_keys.size()); ++b) {
      by_owner[ownership.OfBand(scope, b, band_keys[b])].push_back(
          {KeyKind::kBand, b, band_keys[b]});
    }
  }
  std::vector<NearProbe> probes;
  probes.reserve(by_owner.size());
  for (auto& [owner, keys] : by_owner) probes.push_back({owner, std::move(keys)});
  return probes;
}

}  // namespace pagesieve::routing
