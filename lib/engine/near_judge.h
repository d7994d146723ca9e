#pragma once

#include <optional>

#include "engine/near_rule.h"
#include "engine/prepared_record.h"
#include "store/tier_stores.h"

namespace pagesieve::engine {

// A near candidate that the rule accepts, and how it was judged.
struct NearVerdict {
  const store::NearCandidate* candidate;
  std::optional<double> similarity;  // estimated Jaccard, when both pages have sketches
  NearMethod method;                 // kSimHash or kMinHash: what decided
  // The estimated containment when it decided (the Jaccard fell short of
  // the rule's jaccard); none when the Jaccard or the SimHash did.
  std::optional<double> containment = std::nullopt;
};

// Judges the candidates a near lookup found for `record` (sorted by
// distance, then earliest origin) by its near rule, and returns the one it
// is a duplicate of, if any:
//  - kSimHash: the first candidate within max_distance bits;
//  - kMinHash: the most similar candidate whose estimated Jaccard with the
//    record reaches the rule's jaccard, else the most similar one that
//    passes the containment rule (pages without sketches: none);
//  - kBoth: like kMinHash for candidates with sketches on both sides, like
//    kSimHash for the others; a Jaccard match is preferred.
// Ties go to the earlier candidate (closer, then earlier origin).
std::optional<NearVerdict> JudgeNear(const PreparedRecord& record,
                                     const std::vector<store::NearCandidate>& candidates);

}  // namespace pagesieve::engine
