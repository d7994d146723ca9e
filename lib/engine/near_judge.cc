#include "engine/near_judge.h"

#include "fingerprint/minhash.h"

namespace pagesieve::engine {
namespace {

// The estimated Jaccard similarity of two encoded sketches; none when either
// is missing, unreadable or of other parameters (never compared then).
std::optional<double> Similarity(const std::optional<fingerprint::MinHashSketch>& mine,
                                 const std::string& theirs) {
  if (!mine || theirs.empty()) return std::nullopt;
  StatusOr<fingerprint::MinHashSketch> other = fingerprint::MinHashSketch::Decode(theirs);
  if (!other.ok()) return std::nullopt;
  StatusOr<double> j = fingerprint::EstimateJaccard(*mine, *other);
  return j.ok() ? std::optional<double>(*j) : std::nullopt;
}

// Whether `c` is a duplicate under `rule`, and how it was judged.
std::optional<NearVerdict> Judge(const store::NearCandidate& c, const NearRule& rule,
                                 const std::optional<fingerprint::MinHashSketch>& sketch) {
  const std::optional<double> similarity = Similarity(sketch, c.sketch);
  const bool close = c.distance <= rule.max_distance;
  switch (rule.method) {
    case NearMethod::kSimHash:
      if (close) return NearVerdict{&c, similarity, NearMethod::kSimHash};
      return std::nullopt;
    case NearMethod::kMinHash:
      if (similarity && *similarity >= rule.jaccard) {
        return NearVerdict{&c, similarity, NearMethod::kMinHash};
      }
      return std::nullopt;
    case NearMethod::kBoth:
      if (similarity) {
        if (*similarity >= rule.jaccard) return NearVerdict{&c, similarity, NearMethod::kMinHash};
        return std::nullopt;
      }
      if (close) return NearVerdict{&c, std::nullopt, NearMethod::kSimHash};
      return std::nullopt;
  }
  return std::nullopt;
}

// Whether `a` is a better match than `b`, the earlier of the two in the
// candidates' order: only a higher similarity beats an earlier candidate.
bool Better(const NearVerdict& a, const NearVerdict& b) {
  if (a.similarity && !b.similarity) return true;
  return a.similarity && b.similarity && *a.similarity > *b.similarity;
}

}  // namespace

std::optional<NearVerdict> JudgeNear(const PreparedRecord& record,
                                     const std::vector<store::NearCandidate>& candidates) {
  const NearRule& rule = record.near;
  std::optional<fingerprint::MinHashSketch> sketch;
  const std::string& encoded = record.fingerprints->minhash;
  if (!encoded.empty()) {
    StatusOr<fingerprint::MinHashSketch> decoded = fingerprint::MinHashSketch::Decode(encoded);
    if (decoded.ok()) sketch = std::move(decoded).value();
  }
  std::optional<NearVerdict> best;
  for (const store::NearCandidate& c : candidates) {
    std::optional<NearVerdict> v = Judge(c, rule, sketch);
    if (!v) continue;
    // The SimHash rule keeps the closest, earliest candidate, as it always has.
    if (rule.method == NearMethod::kSimHash) return v;
    if (!best || Better(*v, *best)) best = v;
  }
  return best;
}

}  // namespace pagesieve::engine
