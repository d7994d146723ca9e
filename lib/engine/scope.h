#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::engine {

// What records are compared with (scope.key): only records of the same scope
// can be duplicates of each other.
enum class ScopeKey {
  kRegisteredDomain,  // the site: news.bbc.co.uk and www.bbc.co.uk share bbc.co.uk
  kHost,              // the exact host
  kRecordKey,         // the Kafka record key (files: the event's "key" field)
  kGlobal,            // everything is one scope
};

StatusOr<ScopeKey> ParseScopeKey(std::string_view name);

// The scope string of one record. `host` is the canonical URL's ASCII host.
// A record without a key under kRecordKey falls back to its registered
// domain, so unkeyed records are still compared within their site.
std::string ScopeOf(ScopeKey key, std::string_view host, std::optional<std::string_view> record_key);

// Per-site near.max_distance: the first pattern that matches the record's
// host or its registered domain wins ('*' any run, '?' one character, ASCII
// case ignored); otherwise the default.
struct NearOverride {
  std::string pattern;
  int max_distance = 0;
};

class NearDistancePolicy {
 public:
  NearDistancePolicy(int default_distance, std::vector<NearOverride> overrides);

  int DistanceFor(std::string_view host, std::string_view registered_domain) const;
  // The largest distance any record may be looked up with: the SimHash
  // tables of a shard must be built for it.
  int MaxDistance() const;

 private:
  int default_distance_;
  std::vector<NearOverride> overrides_;  // patterns lowercased
};

}  // namespace pagesieve::engine
