#pragma once

#include <optional>
#include <string>
#include <string_view>

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

}  // namespace pagesieve::engine
