#pragma once

#include <string>
#include <string_view>

namespace pagesieve::url {

// The registrable domain of an ASCII host by the Public Suffix List (libpsl's
// built-in list), e.g. "news.bbc.co.uk" -> "bbc.co.uk". An IP address (IPv4
// dotted, or IPv6 with or without brackets), or a host without a registrable
// domain (localhost, a bare public suffix), returns the host itself. The host
// is expected in canonical form (CanonicalUrl::host(): lowercase, punycode,
// no trailing dot); other input is lowercased and a trailing dot ignored.
// Thread-safe.
std::string RegisteredDomain(std::string_view ascii_host);

}  // namespace pagesieve::url
