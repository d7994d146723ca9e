#pragma once

// Splitting a raw URL into the parts the canonical form is built from.

#include <string_view>

#include "common/status_or.h"

namespace pagesieve::url::internal {

enum class Scheme { kHttp, kHttps };

// Views into the cleaned input (see SplitRawUrl).
struct RawUrl {
  Scheme scheme = Scheme::kHttp;
  std::string_view host;   // may still hold escapes, uppercase, brackets
  std::string_view port;   // digits or empty (no port, or an empty one)
  std::string_view path;   // up to '?' or '#', may be empty
  std::string_view query;  // between '?' and '#'
  bool has_query = false;
};

// Splits a URL already trimmed of spaces and controls and cleaned of tabs and
// newlines. As browsers do for http(s), any run of '/' and '\' after the
// scheme leads to the authority ("http:\\x.com", "http:x.com"); userinfo
// (up to the last '@' of the authority) is dropped. Errors: missing or
// unsupported scheme, empty host, invalid port characters.
StatusOr<RawUrl> SplitRawUrl(std::string_view url);

}  // namespace pagesieve::url::internal
