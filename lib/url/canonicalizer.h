#pragma once

// The entry point of lib/url: the canonical form of an http(s) URL, the
// string every URL-level comparison in pagesieve is made on.
//
// The rules (docs/url-canonicalization.md has them with examples):
//   scheme  lowercase; only http and https
//   host    userinfo dropped; percent-decoded, lowercased, IDN to punycode
//           (UTS-46 non-transitional), trailing dots dropped; IPv4 in any
//           WHATWG form → dotted decimal; IPv6 compressed, in brackets
//   port    dropped when empty or the scheme's default
//   path    "/" when empty; "\" → "/"; dot segments resolved; repeated
//           slashes collapsed; session ";params" removed; percent-encoding
//           normalized
//   query   empty pairs and denylisted parameters dropped; percent-encoding
//           normalized; pairs sorted by name, then value
//   fragment dropped
// Canonicalize(Canonicalize(x)) == Canonicalize(x) for every x.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "config/config.h"

namespace pagesieve::url {

// The tracking and session parameters dropped by default (url.strip_params).
std::vector<std::string> DefaultStripParams();

struct CanonicalizerOptions {
  // A URL longer than this (after trimming), or whose canonical form would be
  // longer, is an error. Capped at 2^28 (offsets in CanonicalUrl are 32-bit).
  size_t max_length = 8192;
  // Glob patterns ('*' any run, '?' one byte), matched case-insensitively
  // against the normalized name of each query parameter and of each ";param"
  // of a path segment; a match is dropped.
  std::vector<std::string> strip_params = DefaultStripParams();
  // Sort query pairs by name, then value (normalized bytes).
  bool sort_query = true;
  // The options below merge URLs that may be distinct pages: off by default.
  bool strip_www = false;             // a leading "www." label (never down to a public suffix)
  bool strip_index = false;           // a last segment index.html/htm/php, default.asp/aspx
  bool strip_trailing_slash = false;  // "/a/" → "/a" (the root "/" stays)
  bool fold_scheme = false;           // http → https
};

// Reads the url.* canonicalization keys; an out-of-range value is an
// InvalidArgument naming the key.
StatusOr<CanonicalizerOptions> CanonicalizerOptionsFromConfig(const Config& config);

// A canonical URL: `spec` plus the offsets of its parts, so callers can take
// the host or the path without parsing again.
struct CanonicalUrl {
  std::string spec;  // "scheme://host[:port]path[?query]"

  // Offsets into spec. The host of an IPv6 address excludes its brackets.
  uint32_t host_begin = 0;
  uint32_t host_end = 0;
  uint32_t path_begin = 0;   // the '/' that starts the path
  uint32_t query_begin = 0;  // the '?' when there is a query, else spec.size()

  // "http" or "https".
  std::string_view scheme() const { return View(0, spec.size() > 4 && spec[4] == ':' ? 4 : 5); }
  // The ASCII host: a lowercase domain name (punycode for IDN), a dotted
  // decimal IPv4 address, or an IPv6 address WITHOUT its brackets.
  std::string_view host() const { return View(host_begin, host_end); }
  // The path, always starting with '/'.
  std::string_view path() const { return View(path_begin, query_begin); }
  // The query without its '?'; empty when there is none.
  std::string_view query() const {
    return query_begin < spec.size() ? View(query_begin + 1, spec.size()) : std::string_view();
  }
  // Path and query, as sent in an HTTP request line.
  std::string_view path_and_query() const { return View(path_begin, spec.size()); }

 private:
  std::string_view View(size_t begin, size_t end) const {
    return std::string_view(spec).substr(begin, end - begin);
  }
};

class ParamMatcher;

// Canonicalizes URLs by the rules above.
//
// Immutable after construction; Canonicalize may be called from any number
// of threads at once. For an ASCII host it allocates only the result (plus
// scratch for rare inputs: control bytes inside, queries over 64 pairs or
// 2 KB). libidn2 is called only for hosts that need it (non-ASCII bytes or
// an "xn--" label), and its results are cached per thread.
class Canonicalizer {
 public:
  explicit Canonicalizer(CanonicalizerOptions options);
  ~Canonicalizer();
  Canonicalizer(Canonicalizer&&) noexcept;
  Canonicalizer& operator=(Canonicalizer&&) noexcept;

  // The canonical form of `raw`, or InvalidArgument with a short human reason
  // ("unsupported scheme", "invalid port", ...).
  StatusOr<CanonicalUrl> Canonicalize(std::string_view raw) const;

  const CanonicalizerOptions& options() const { return options_; }

 private:
  CanonicalizerOptions options_;
  std::unique_ptr<ParamMatcher> strip_params_;
};

}  // namespace pagesieve::url
