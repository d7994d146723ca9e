#pragma once

// The query part of the canonical form.

#include <string>
#include <string_view>

namespace pagesieve::url {
class ParamMatcher;
}

namespace pagesieve::url::internal {

struct QueryOptions {
  const ParamMatcher* strip_params = nullptr;  // pairs whose name matches are dropped
  bool sort = true;
};

// Appends "?" and the canonical query for `raw` (between '?' and '#'), or
// nothing when no pair is left. Pairs are split on '&' and the name ends at
// the first '='; each pair's percent-encoding is normalized ('&', '=' and
// '+' keep their meaning: '+' stays '+', "%20" stays "%20"); empty pairs and
// matching names are dropped; with `sort`, pairs are ordered by name, then
// value, by their normalized bytes (a pair without '=' before one with an
// empty value).
void AppendCanonicalQuery(std::string_view raw, const QueryOptions& options, std::string* out);

}  // namespace pagesieve::url::internal
