#include "engine/decider.h"

namespace pagesieve::engine {
namespace {

// Tiers answer "settled, with this decision" or "not settled here".
using Settled = std::optional<Decision>;

Settled Duplicate(Tier tier, std::optional<store::Origin> of, std::optional<int> distance) {
  return Decision{VerdictKind::kDuplicate, tier, std::move(of), distance};
}

// A record that finds its own origin in a content store was unique the first
// time it was processed (state is ahead of the input: a replay). It stays
// unique, and its entries are already there.
Settled UniqueAgain() { return Decision{}; }

}  // namespace

StatusOr<Decision> Decider::Decide(const Candidate& record, store::Shard& shard) const {
  shard.ObserveEventTime(record.self.event_time);
  PS_ASSIGN_OR_RETURN(std::optional<Decision> by_url, UrlTier(record, shard));
  if (by_url) return *by_url;
  PS_ASSIGN_OR_RETURN(std::optional<Decision> by_content, ExactTier(record, shard));
  if (by_content) return *by_content;
  PS_ASSIGN_OR_RETURN(std::optional<Decision> by_near, NearTier(record, shard));
  if (by_near) return *by_near;

  PS_RETURN_IF_ERROR(shard.InsertContent(record.scope, record.content, record.self));
  if (record.simhash) {
    PS_RETURN_IF_ERROR(shard.InsertNear(record.scope, *record.simhash, record.self));
  }
  return Decision{};
}

StatusOr<std::optional<Decision>> Decider::UrlTier(const Candidate& record,
                                                   store::Shard& shard) const {
  const store::OriginFilter filter{record.self.partition, record.self.offset};
  PS_ASSIGN_OR_RETURN(store::UrlLookup lookup, shard.LookupUrl(record.scope, record.url, filter));
  Settled decision;
  if (options_.url_mode == store::UrlMode::kBloom) {
    // The Bloom filter knows neither the origin nor the content.
    if (lookup.seen) decision = Duplicate(Tier::kUrl, std::nullopt, std::nullopt);
  } else if (lookup.entry && !lookup.entry->origin.IsRecord(record.self.partition,
                                                          record.self.offset)) {
    const bool changed = lookup.entry->content != record.content;
    if (options_.on_revisit == RevisitPolicy::kDuplicate || !changed) {
      decision = Duplicate(Tier::kUrl, lookup.entry->origin, std::nullopt);
    }
  }
  // Every URL is recorded, duplicate or not, so later variants of it are
  // caught and a changed page's new digest becomes the one compared next.
  PS_RETURN_IF_ERROR(shard.RecordUrl(record.scope, record.url, record.self,
                                     record.self.event_time, record.content));
  return decision;
}

StatusOr<std::optional<Decision>> Decider::ExactTier(const Candidate& record,
                                                     store::Shard& shard) const {
  const store::OriginFilter filter{record.self.partition, record.self.offset};
  PS_ASSIGN_OR_RETURN(std::optional<store::ContentEntry> entry,
                      shard.LookupContent(record.scope, record.content, filter));
  if (!entry) return Settled();
  if (entry->origin.IsRecord(record.self.partition, record.self.offset)) return UniqueAgain();
  PS_RETURN_IF_ERROR(shard.TouchContent(record.scope, record.content, record.self.event_time));
  return Duplicate(Tier::kExact, entry->origin, 0);
}

StatusOr<std::optional<Decision>> Decider::NearTier(const Candidate& record,
                                                    store::Shard& shard) const {
  if (!record.simhash) return Settled();
  const store::OriginFilter filter{record.self.partition, record.self.offset};
  PS_ASSIGN_OR_RETURN(
      std::optional<store::NearMatch> match,
      shard.FindNear(record.scope, *record.simhash, record.near_max_distance, filter));
  if (!match) return Settled();
  if (match->origin.IsRecord(record.self.partition, record.self.offset)) return UniqueAgain();
  PS_RETURN_IF_ERROR(shard.TouchNear(record.scope, match->simhash, record.self.event_time));
  return Duplicate(Tier::kNear, match->origin, match->distance);
}

}  // namespace pagesieve::engine
