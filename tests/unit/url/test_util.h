#pragma once

#include <string>
#include <string_view>

#include "url/canonicalizer.h"

namespace pagesieve::url::testing {

// The canonical spec, or "!error: <reason>": one string to compare, so a
// failure shows what came out either way.
inline std::string Canon(const Canonicalizer& canonicalizer, std::string_view raw) {
  StatusOr<CanonicalUrl> url = canonicalizer.Canonicalize(raw);
  return url.ok() ? url->spec : "!error: " + url.status().message();
}

inline std::string Canon(std::string_view raw, CanonicalizerOptions options = {}) {
  return Canon(Canonicalizer(std::move(options)), raw);
}

}  // namespace pagesieve::url::testing
