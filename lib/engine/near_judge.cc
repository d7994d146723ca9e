#include "engine/near_judge.h"

#include "fingerprint/minhash.h"
#include "fingerprint/title_tokens.h"

namespace pagesieve::engine {
namespace {

// What two sketches say of their pages: the estimated Jaccard, how much of
// the smaller page the larger holds (none when a size is unknown), and
// whether two short pages' titles agree (title_tokens.h).
struct Overlap {
  double jaccard = 0;
  std::optional<double> containment;
  bool titles_agree = true;
};

// Where either page is short, its title is part of its identity: the other
// page's title must agree with it.
bool TitlesAgree(const fingerprint::MinHashSketch::Title& a,
                 const fingerprint::MinHashSketch::Title& b) {
  return !(a.counts || b.counts) || fingerprint::TitlesAgree(a.tokens, b.tokens);
}

// The overlap of two encoded sketches; none when either is missing,
// unreadable or of other parameters (never compared then).
std::optional<Overlap> Compare(const std::optional<fingerprint::MinHashSketch>& mine,
                               const std::string& theirs) {
  if (!mine || theirs.empty()) return std::nullopt;
  StatusOr<fingerprint::MinHashSketch> other = fingerprint::MinHashSketch::Decode(theirs);
  if (!other.ok()) return std::nullopt;
  StatusOr<double> j = fingerprint::EstimateJaccard(*mine, *other);
  if (!j.ok()) return std::nullopt;
  return Overlap{*j, fingerprint::EstimateContainment(*j, mine->set_size(), other->set_size()),
                 TitlesAgree(mine->title(), other->title())};
}

// Whether the sketches' overlap makes a duplicate under `rule`, and by which
// test: the containment it was accepted by, if the Jaccard alone fell short.
std::optional<NearVerdict> ByOverlap(const store::NearCandidate& c, const NearRule& rule,
                                     const Overlap& o) {
  // Short pages that name different pages are different pages, however
  // alike the text the extractor found (often what the site's pages share).
  if (!o.titles_agree) return std::nullopt;
  if (o.jaccard >= rule.jaccard) return NearVerdict{&c, o.jaccard, NearMethod::kMinHash};
  const bool contained = rule.containment > 0 && o.jaccard >= rule.containment_jaccard &&
                         o.containment && *o.containment >= rule.containment;
  if (!contained) return std::nullopt;
  return NearVerdict{&c, o.jaccard, NearMethod::kMinHash, o.containment};
}

// Whether `c` is a duplicate under `rule`, and how it was judged.
std::optional<NearVerdict> Judge(const store::NearCandidate& c, const NearRule& rule,
                                 const std::optional<fingerprint::MinHashSketch>& sketch) {
  const std::optional<Overlap> overlap = Compare(sketch, c.sketch);
  const bool close = c.distance <= rule.max_distance;
  switch (rule.method) {
    case NearMethod::kSimHash:
      if (!close) return std::nullopt;
      return NearVerdict{&c, overlap ? std::optional<double>(overlap->jaccard) : std::nullopt,
                         NearMethod::kSimHash};
    case NearMethod::kMinHash:
      if (overlap) return ByOverlap(c, rule, *overlap);
      return std::nullopt;
    case NearMethod::kBoth:
      if (overlap) return ByOverlap(c, rule, *overlap);
      if (close) return NearVerdict{&c, std::nullopt, NearMethod::kSimHash};
      return std::nullopt;
  }
  return std::nullopt;
}

// Whether `a` is a better match than `b`, the earlier of the two in the
// candidates' order: a Jaccard match beats a containment match, and
// otherwise only a higher similarity beats an earlier candidate.
bool Better(const NearVerdict& a, const NearVerdict& b) {
  if (a.similarity && !b.similarity) return true;
  if (a.containment.has_value() != b.containment.has_value()) return !a.containment;
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
