// NearStore::Find: the candidates of the SimHash tables and of the LSH
// bands, verified against their entries and merged.
#include <algorithm>
#include <bit>
#include <tuple>

#include "store/keys.h"
#include "store/near_store.h"
#include "store/tier_stores.h"

namespace pagesieve::store {

bool RanksBefore(const NearCandidate& a, const NearCandidate& b) {
  return std::tuple(a.distance, a.origin.event_time, a.origin.partition, a.origin.offset,
                    a.simhash) < std::tuple(b.distance, b.origin.event_time, b.origin.partition,
                                            b.origin.offset, b.simhash);
}

StatusOr<std::vector<NearCandidate>> NearStore::Find(uint64_t scope_id, const NearQuery& query,
                                                     const OriginFilter& filter) {
  if (query.max_distance < 0 || query.max_distance > layout_->max_distance()) {
    return Status::InvalidArgument("FindNear: max_distance " + std::to_string(query.max_distance) +
                                   " is outside 0.." + std::to_string(layout_->max_distance()) +
                                   " (near.max_distance the shard was built for)");
  }
  if (!query.sketch.empty()) {
    PS_RETURN_IF_ERROR(ParseSketchHeader(query.sketch).status().WithContext("FindNear"));
  }
  CollectCandidates(query);
  std::vector<NearCandidate> out;
  if (found_.empty()) return out;  // a new page: nothing read, nothing allocated
  const bool comparable = Comparable(query.sketch);
  if (comparable) query_keys_ = keys_;  // CollectCandidates computed them
  for (uint64_t simhash : found_) {
    PS_ASSIGN_OR_RETURN(std::optional<NearCandidate> c,
                        Verify(scope_id, simhash, query, comparable, filter));
    if (c) out.push_back(std::move(*c));
  }
  std::sort(out.begin(), out.end(), RanksBefore);
  return out;
}

void NearStore::CollectCandidates(const NearQuery& query) {
  found_.clear();
  candidates_.clear();
  index_.Collect(query.simhash, query.max_distance, &candidates_);
  for (const SimHashIndex::Candidate& c : candidates_) found_.push_back(c.simhash);
  if (BandKeys(query.sketch)) lsh_->Collect(keys_, &found_);
  // A SimHash is listed once per table, band and generation that holds it.
  if (found_.size() > 1) {
    std::sort(found_.begin(), found_.end());
    found_.erase(std::unique(found_.begin(), found_.end()), found_.end());
  }
}

// A band candidate may be another scope's entry, or share only a tag with
// the query: comparing the sketches settles both, and in_bands means the
// same for a candidate the tables found.
StatusOr<std::optional<NearCandidate>> NearStore::Verify(uint64_t scope_id, uint64_t simhash,
                                                         const NearQuery& query,
                                                         bool query_comparable,
                                                         const OriginFilter& filter) {
  PS_ASSIGN_OR_RETURN(std::optional<NearEntry> entry, LiveEntry(scope_id, simhash, filter));
  if (!entry) return std::optional<NearCandidate>();
  NearCandidate c;
  c.simhash = simhash;
  c.distance = std::popcount(simhash ^ query.simhash);
  c.in_tables = c.distance <= query.max_distance;
  if (entry->slim) {
    // Only the bands of its rows: a band it shares elsewhere is found by
    // that band's owner, and the content owner merges the answers.
    c.in_bands = query_comparable && SharesOwnBand(entry->rows, entry->band_keys);
  } else {
    c.in_bands = query_comparable && Comparable(entry->sketch) &&
                 bands_->ShareBand(query.sketch, entry->sketch);
  }
  if (!c.in_tables && !c.in_bands) return std::optional<NearCandidate>();
  c.origin = std::move(entry->origin);
  c.last_seen = entry->last_seen;
  c.sketch = std::move(entry->sketch);
  return std::optional<NearCandidate>(std::move(c));
}

bool NearStore::SharesOwnBand(const NearRows& rows, std::string_view packed) const {
  if (!bands_ || query_keys_.size() != static_cast<size_t>(bands_->bands())) return false;
  for (int b = 0; b < bands_->bands() && packed.size() >= 8; ++b) {
    if (!rows.HasBand(b)) continue;
    if (DecodeFixed64(packed.data()) == query_keys_[static_cast<size_t>(b)]) return true;
    packed.remove_prefix(8);
  }
  return false;
}

}  // namespace pagesieve::store
