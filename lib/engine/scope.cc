#include "engine/scope.h"

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

}  // namespace pagesieve::engine
