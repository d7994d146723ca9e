#pragma once

// Real pages and edited copies of them, as shingle sets, for the MinHash
// benchmark: each pair knows its exact Jaccard similarity.

#include <cstdint>
#include <string>
#include <vector>

namespace pagesieve::fingerprint::bench {

// A text's shingles as the fingerprinter makes them: sorted, one per
// occurrence (what MinHasher::Sketch takes).
using Shingles = std::vector<uint64_t>;

// The normalized blocks of a page's main text.
using Blocks = std::vector<std::string>;

// The normalized main text of every page of both datasets under `data_dir`
// that gets a SimHash (at least near.min_tokens tokens).
std::vector<Blocks> LoadPages(const std::string& data_dir);

// The shingles of blocks; empty below near.min_tokens.
Shingles ShinglesOf(const Blocks& blocks);

// |A ∩ B| / |A ∪ B| over the distinct shingles.
double ExactJaccard(const Shingles& a, const Shingles& b);

struct PagePair {
  std::string kind;  // how `b` was made from page `a` (see MakePairs)
  size_t a = 0;      // index of the original page
  Shingles b;
  double jaccard = 0;
};

// For every page, edited copies (1, 2, 3 replaced words; 2, 5, 10, 20 % of
// the words replaced), a page sharing its first third with another page,
// another page with one of its paragraphs inserted, and an unrelated page.
// Seeded: the same pairs on every run.
std::vector<PagePair> MakePairs(const std::vector<Blocks>& pages,
                                const std::vector<Shingles>& shingles, uint64_t seed);

}  // namespace pagesieve::fingerprint::bench
