#include "engine/sieve.h"

namespace pagesieve::engine {

StatusOr<Verdict> Sieve::Decide(PreparedRecord record, store::Shard& shard) const {
  Verdict& v = record.verdict;
  if (record.skipped) return std::move(v);  // touches no state, not even the watermark

  Candidate candidate;
  candidate.scope = v.scope;
  candidate.url = v.fingerprints->url;
  candidate.content = v.fingerprints->content;
  candidate.simhash = v.fingerprints->simhash;
  candidate.near_max_distance = record.near_max_distance;
  candidate.self = store::Origin{v.event_id, v.canonical_url, v.event_time, record.partition,
                                 record.offset};

  PS_ASSIGN_OR_RETURN(Decision decision, decider_.Decide(candidate, shard));
  v.kind = decision.kind;
  v.tier = decision.tier;
  v.distance = decision.distance;
  if (decision.duplicate_of) {
    v.duplicate_of = DuplicateOf{decision.duplicate_of->event_id, decision.duplicate_of->url,
                                 decision.duplicate_of->event_time};
  }
  return std::move(v);
}

}  // namespace pagesieve::engine
