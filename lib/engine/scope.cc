#include "engine/scope.h"

#include <algorithm>

#include "url/param_matcher.h"
#include "url/registered_domain.h"

namespace pagesieve::engine {

StatusOr<ScopeKey> ParseScopeKey(std::string_view name) {
  if (name == "registered_domain") return ScopeKey::kRegisteredDomain;
  if (name == "host") return ScopeKey::kHost;
  if (name == "record_key") return ScopeKey::kRecordKey;
  if (name == "global") return ScopeKey::kGlobal;
  return Status::InvalidArgument("scope.key must be registered_domain, host, record_key or "
                                 "global, not '" + std::string(name) + "'");
}

std::string ScopeOf(ScopeKey key, std::string_view host,
                    std::optional<std::string_view> record_key) {
  switch (key) {
    case ScopeKey::kHost:
      return std::string(host);
    case ScopeKey::kGlobal:
      return "*";
    case ScopeKey::kRecordKey:
      if (record_key) return std::string(*record_key);
      [[fallthrough]];
    case ScopeKey::kRegisteredDomain:
      return url::RegisteredDomain(host);
  }
  return std::string(host);
}

NearDistancePolicy::NearDistancePolicy(int default_distance, std::vector<NearOverride> overrides)
    : default_distance_(default_distance), overrides_(std::move(overrides)) {
  for (NearOverride& o : overrides_) {
    std::transform(o.pattern.begin(), o.pattern.end(), o.pattern.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  }
}

int NearDistancePolicy::DistanceFor(std::string_view host,
                                    std::string_view registered_domain) const {
  for (const NearOverride& o : overrides_) {
    if (url::GlobMatches(o.pattern, host) || url::GlobMatches(o.pattern, registered_domain)) {
      return o.max_distance;
    }
  }
  return default_distance_;
}

int NearDistancePolicy::MaxDistance() const {
  int max = default_distance_;
  for (const NearOverride& o : overrides_) max = std::max(max, o.max_distance);
  return max;
}

}  // namespace pagesieve::engine
