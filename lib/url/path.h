#pragma once

// The path part of the canonical form.

#include <string>
#include <string_view>

namespace pagesieve::url {
class ParamMatcher;
}

namespace pagesieve::url::internal {

struct PathOptions {
  // ";name=value" path parameters whose name matches are removed.
  const ParamMatcher* strip_params = nullptr;
  bool strip_index = false;
  bool strip_trailing_slash = false;
};

// Appends the canonical path for `raw` (from the end of the authority to the
// query or fragment; '\' counts as '/'): always starts with '/', no empty
// segments except a final one (a trailing slash), no "." or ".." segments
// (also when written %2e), percent-encoding normalized, matching ";params"
// removed.
void AppendCanonicalPath(std::string_view raw, const PathOptions& options, std::string* out);

}  // namespace pagesieve::url::internal
