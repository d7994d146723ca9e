#include "engine/near_rule.h"

#include <algorithm>
#include <cctype>

#include "url/param_matcher.h"

namespace pagesieve::engine {

StatusOr<NearMethod> ParseNearMethod(std::string_view name) {
  if (name == "simhash") return NearMethod::kSimHash;
  if (name == "minhash") return NearMethod::kMinHash;
  if (name == "both") return NearMethod::kBoth;
  return Status::InvalidArgument("must be simhash, minhash or both, not '" + std::string(name) +
                                 "'");
}

std::string_view NearMethodName(NearMethod method) {
  switch (method) {
    case NearMethod::kSimHash: return "simhash";
    case NearMethod::kMinHash: return "minhash";
    case NearMethod::kBoth: return "both";
  }
  return "unknown";
}

double NearRule::LowestJaccard() const {
  return containment > 0 ? std::min(jaccard, containment_jaccard) : jaccard;
}

NearPolicy::NearPolicy(NearRule defaults, std::vector<NearOverride> overrides)
    : defaults_(defaults), overrides_(std::move(overrides)) {
  for (NearOverride& o : overrides_) {
    std::transform(o.pattern.begin(), o.pattern.end(), o.pattern.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  }
}

NearRule NearPolicy::Apply(const NearOverride& o) const {
  NearRule rule = defaults_;
  if (o.max_distance) rule.max_distance = *o.max_distance;
  if (o.jaccard) rule.jaccard = *o.jaccard;
  if (o.method) rule.method = *o.method;
  if (o.containment) rule.containment = *o.containment;
  if (o.containment_jaccard) rule.containment_jaccard = *o.containment_jaccard;
  return rule;
}

NearRule NearPolicy::RuleFor(std::string_view host, std::string_view registered_domain) const {
  for (const NearOverride& o : overrides_) {
    if (url::GlobMatches(o.pattern, host) || url::GlobMatches(o.pattern, registered_domain)) {
      return Apply(o);
    }
  }
  return defaults_;
}

int NearPolicy::MaxDistance() const {
  int max = defaults_.max_distance;
  for (const NearOverride& o : overrides_) max = std::max(max, Apply(o).max_distance);
  return max;
}

double NearPolicy::MinJaccard() const {
  double min = defaults_.LowestJaccard();
  for (const NearOverride& o : overrides_) min = std::min(min, Apply(o).LowestJaccard());
  return min;
}

}  // namespace pagesieve::engine
