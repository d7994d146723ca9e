#pragma once

// The host part of the canonical form.

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"

namespace pagesieve::url::internal {

// Where the host landed in the output: [begin, end), without IPv6 brackets.
struct HostSpan {
  size_t begin = 0;
  size_t end = 0;
};

// Appends the canonical form of `raw` (the authority's host, userinfo and
// port already cut off) to `out`:
//   "[...]"   an IPv6 address, compressed, in brackets;
//   else      percent-decoded, lowercased, IDNA to punycode where needed,
//             trailing dots dropped; a host ending in a number must be an
//             IPv4 address, written in dotted decimal.
// With `strip_www`, leading "www." labels are dropped while what remains is
// not a public suffix. Errors: empty host, forbidden character, invalid
// escape, address or IDN.
Status AppendCanonicalHost(std::string_view raw, bool strip_www, std::string* out, HostSpan* span);

}  // namespace pagesieve::url::internal
