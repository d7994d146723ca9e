#include "engine/decider.h"

#include "engine/near_judge.h"

namespace pagesieve::engine {
namespace {

bool IsSelf(const store::Origin& origin, const PreparedRecord& r) {
  return origin.IsRecord(r.partition, r.offset);
}

// The digest the record was compared with the first time. When the entry's
// last write is the record's own, state already holds it (a replay), and
// the record compares with the digest its write replaced.
const Digest128& ContentBefore(const store::UrlEntry& entry, const PreparedRecord& r) {
  const bool replay = entry.last_write && entry.last_write->IsRecord(r.partition, r.offset);
  return replay ? entry.last_write->previous_content : entry.content;
}

}  // namespace

StatusOr<Decision> Decider::Decide(const PreparedRecord& record, store::TierStores& stores) const {
  if (record.skipped()) return Decision::Skipped();
  PS_ASSIGN_OR_RETURN(Settled by_url, DecideUrl(record, stores));
  if (by_url) return *by_url;
  return DecideContent(record, stores);
}

StatusOr<std::optional<Decision>> Decider::DecideUrl(const PreparedRecord& record,
                                                     store::TierStores& stores) const {
  stores.ObserveEventTime(record.event_time);
  return UrlTier(record, stores);
}

StatusOr<Decision> Decider::DecideContent(const PreparedRecord& record,
                                          store::TierStores& stores) const {
  stores.ObserveEventTime(record.event_time);
  PS_ASSIGN_OR_RETURN(Settled by_content, ExactTier(record, stores));
  if (by_content) return *by_content;
  PS_ASSIGN_OR_RETURN(Settled by_near, NearTier(record, stores));
  if (by_near) return *by_near;

  const Fingerprints& fp = *record.fingerprints;
  const store::Origin self = record.origin();
  PS_RETURN_IF_ERROR(stores.InsertContent(record.scope, fp.content, self));
  if (fp.simhash) {
    PS_RETURN_IF_ERROR(stores.InsertNear(record.scope, *fp.simhash, fp.minhash, self));
  }
  return Decision::Unique();
}

StatusOr<Decider::Settled> Decider::UrlTier(const PreparedRecord& record,
                                            store::TierStores& stores) const {
  const Fingerprints& fp = *record.fingerprints;
  PS_ASSIGN_OR_RETURN(store::UrlLookup lookup,
                      stores.LookupUrl(record.scope, fp.url, ReplayFilter(record)));
  Settled decision;
  if (options_.url_mode == store::UrlMode::kBloom) {
    // The Bloom filter knows neither the origin nor the content.
    if (lookup.seen) decision = Decision::Duplicate(Tier::kUrl, std::nullopt, std::nullopt);
  } else if (lookup.entry && !IsSelf(lookup.entry->origin, record)) {
    // (An entry the record created itself is no revisit: it was new then.)
    const bool changed = ContentBefore(*lookup.entry, record) != fp.content;
    if (options_.on_revisit == RevisitPolicy::kDuplicate || !changed) {
      decision = Decision::Duplicate(Tier::kUrl, lookup.entry->origin, std::nullopt);
    }
  }
  // Every URL is recorded, duplicate or not, so later variants of it are
  // caught and a changed page's new digest becomes the one compared next.
  // A replayed record that wrote the entry last leaves it as it was.
  PS_RETURN_IF_ERROR(
      stores.RecordUrl(record.scope, fp.url, record.origin(), record.event_time, fp.content));
  return decision;
}

StatusOr<Decider::Settled> Decider::ExactTier(const PreparedRecord& record,
                                              store::TierStores& stores) const {
  const Digest128& content = record.fingerprints->content;
  PS_ASSIGN_OR_RETURN(std::optional<store::ContentEntry> entry,
                      stores.LookupContent(record.scope, content, ReplayFilter(record)));
  if (!entry) return Settled();
  // The record's own entry: it was unique the first time it was processed
  // (state is ahead of the input), so it stays unique; its entries are there.
  if (IsSelf(entry->origin, record)) return Settled(Decision::Unique());
  PS_RETURN_IF_ERROR(stores.TouchContent(record.scope, content, record.event_time));
  return Settled(Decision::Duplicate(Tier::kExact, entry->origin, 0));
}

StatusOr<Decider::Settled> Decider::NearTier(const PreparedRecord& record,
                                             store::TierStores& stores) const {
  const Fingerprints& fp = *record.fingerprints;
  if (!fp.simhash) return Settled();
  const NearRule& rule = record.near;
  store::NearQuery query;
  query.simhash = *fp.simhash;
  switch (rule.method) {
    case NearMethod::kSimHash: query.max_distance = rule.max_distance; break;
    // Every candidate is judged by Jaccard: the widest radius the tables serve.
    case NearMethod::kBoth: query.max_distance = options_.near_table_distance; break;
    case NearMethod::kMinHash: query.max_distance = 0; break;
  }
  if (rule.method != NearMethod::kSimHash) query.sketch = fp.minhash;
  PS_ASSIGN_OR_RETURN(std::vector<store::NearCandidate> candidates,
                      stores.FindNear(record.scope, query, ReplayFilter(record)));
  const std::optional<NearVerdict> match = JudgeNear(record, candidates);
  if (!match) return Settled();
  const store::NearCandidate& c = *match->candidate;
  if (IsSelf(c.origin, record)) return Settled(Decision::Unique());
  PS_RETURN_IF_ERROR(stores.TouchNear(record.scope, c.simhash, record.event_time));
  return Settled(Decision::Near(c.origin, c.distance, match->similarity, match->method,
                                  match->containment));
}

}  // namespace pagesieve::engine
