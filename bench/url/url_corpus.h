#pragma once

// A realistic corpus of raw URLs for the canonicalization benchmark: the
// real URLs of the shared data sets, plus variants of them as crawlers see
// them (tracking parameters, session ids, mixed case, default ports, dot
// segments, escapes, fragments, reordered queries, some IDN and IPv4 hosts).
// About 2 % of the variants have one of 500 distinct IDN hosts.

#include <cstdint>
#include <string>
#include <vector>

namespace pagesieve::url::bench {

struct CorpusStats {
  size_t base = 0;   // URLs read from the data sets
  size_t idn = 0;    // variants with a non-ASCII or xn-- host
  size_t bytes = 0;  // total bytes of all URLs
};

// `variants` generated URLs per base URL (seeded), after the base URLs
// themselves. Returns an empty list when the data sets cannot be read.
std::vector<std::string> BuildCorpus(int variants, uint32_t seed, CorpusStats* stats);

}  // namespace pagesieve::url::bench
