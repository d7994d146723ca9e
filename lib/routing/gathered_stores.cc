#include "routing/gathered_stores.h"

#include <algorithm>

namespace pagesieve::routing {

void GatheredStores::Start(std::optional<std::vector<store::NearCandidate>> candidates) {
  gathered_ = std::move(candidates);
  inserted_.reset();
  touched_.clear();
}

const store::NearCandidate* GatheredStores::Gathered(uint64_t simhash) const {
  if (!gathered_) return nullptr;
  for (const store::NearCandidate& c : *gathered_) {
    if (c.simhash == simhash) return &c;
  }
  return nullptr;
}

StatusOr<store::UrlLookup> GatheredStores::LookupUrl(std::string_view, const Digest128&,
                                                     const store::OriginFilter&) {
  return Status::Internal("routing: the content owner has no URL store (the URL owner's tier)");
}

Status GatheredStores::RecordUrl(std::string_view, const Digest128&, const store::Origin&,
                                 EventTime, const Digest128&) {
  return Status::Internal("routing: the content owner has no URL store (the URL owner's tier)");
}

StatusOr<std::vector<store::NearCandidate>> GatheredStores::FindNear(
    std::string_view, const store::NearQuery& query, const store::OriginFilter& filter) {
  if (!gathered_) {
    return Status::Internal("routing: the near tier ran before the near owners answered");
  }
  std::vector<store::NearCandidate> out;
  for (const store::NearCandidate& c : *gathered_) {
    if (!filter.Accepts(c.origin)) continue;
    // The owners searched the widest radius with the sketch; the record's
    // rule may ask for less (a smaller distance, or no bands).
    store::NearCandidate narrowed = c;
    narrowed.in_tables = c.distance <= query.max_distance;
    narrowed.in_bands = c.in_bands && !query.sketch.empty();
    if (narrowed.in_tables || narrowed.in_bands) out.push_back(std::move(narrowed));
  }
  std::sort(out.begin(), out.end(), store::RanksBefore);
  // One entry (scope, SimHash) held by several owners answers once (its
  // copies sort together). An owner that is not its home judges a shared
  // band by the bands it owns only: the band's owner said so.
  std::vector<store::NearCandidate> merged;
  merged.reserve(out.size());
  for (store::NearCandidate& c : out) {
    if (!merged.empty() && merged.back().simhash == c.simhash) {
      merged.back().in_bands |= c.in_bands;
      merged.back().in_tables |= c.in_tables;
      continue;
    }
    merged.push_back(std::move(c));
  }
  return merged;
}

Status GatheredStores::InsertNear(std::string_view scope, uint64_t simhash,
                                  std::string_view sketch, const store::Origin& origin) {
  inserted_ = Insert{std::string(scope), simhash, std::string(sketch), origin};
  return Status::Ok();
}

Status GatheredStores::TouchNear(std::string_view scope, uint64_t simhash, EventTime t) {
  touched_.push_back(Touch{std::string(scope), simhash, t});
  return Status::Ok();
}

}  // namespace pagesieve::routing
