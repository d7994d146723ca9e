#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::engine {

// How the near tier judges a candidate (near.method, docs/engine.md).
enum class NearMethod {
  kSimHash,  // a stored SimHash within max_distance bits
  kMinHash,  // an estimated Jaccard similarity of at least `jaccard`
  // Candidates from both indexes, judged by Jaccard; by SimHash distance
  // when either page has no sketch (too few distinct shingles).
  kBoth,
};

StatusOr<NearMethod> ParseNearMethod(std::string_view name);  // simhash|minhash|both
std::string_view NearMethodName(NearMethod method);

// The near tier's settings for one record, after per-site overrides.
struct NearRule {
  int max_distance = 3;  // near.max_distance
  double jaccard = 0.8;  // near.jaccard
  NearMethod method = NearMethod::kBoth;
  // near.containment: a candidate whose estimated Jaccard falls short of
  // `jaccard` still matches when the larger page holds at least this share
  // of the smaller one (a copy that carries only the article, or an
  // original that keeps more around it), and their Jaccard is at least
  // near.containment_jaccard. 0 turns the rule off. Judged where sketches
  // judge (minhash, both).
  double containment = 0.95;
  double containment_jaccard = 0.6;  // near.containment_jaccard

  // The lowest estimated Jaccard this rule can accept: what the LSH bands
  // must offer as candidates.
  double LowestJaccard() const;

  friend bool operator==(const NearRule&, const NearRule&) = default;
};

// A per-site change of the near rule ([[near.overrides]]): the keys it sets
// replace the defaults', the others stay.
struct NearOverride {
  std::string pattern;  // a glob of the host or the registered domain
  std::optional<int> max_distance;
  std::optional<double> jaccard;
  std::optional<NearMethod> method;
  std::optional<double> containment;
  std::optional<double> containment_jaccard;
};

// The near rule of each site: the first override whose pattern matches the
// record's host or its registered domain ('*' any run, '?' one character,
// ASCII case ignored) applies; otherwise the defaults. Immutable;
// thread-safe.
class NearPolicy {
 public:
  NearPolicy(NearRule defaults, std::vector<NearOverride> overrides);

  NearRule RuleFor(std::string_view host, std::string_view registered_domain) const;
  // The largest distance any site uses: the SimHash tables are built for it.
  int MaxDistance() const;
  // The lowest Jaccard any site's rule accepts (near.jaccard, or
  // near.containment_jaccard where containment is on): the LSH bands are
  // derived for it.
  double MinJaccard() const;

 private:
  NearRule Apply(const NearOverride& o) const;

  NearRule defaults_;
  std::vector<NearOverride> overrides_;  // patterns lowercased
};

}  // namespace pagesieve::engine
