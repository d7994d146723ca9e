#pragma once

// Choosing the main content: Readability's block scoring over the parsed
// page, then the spec's fallbacks. Internal.
//
// Every block with enough text of its own (a "paragraph") gives points for
// its length and commas to the element holding it and, decreasingly, to
// four more ancestors; a candidate starts from a bonus for its tag and the
// words of its class/id and ends scaled by (1 - link density). The best
// candidate, adjusted upward when its ancestors hold comparable content, and
// the siblings that look like content, are the main content.

#include <cstdint>
#include <vector>

#include "content/analysis.h"
#include "content/dom.h"

namespace pagesieve::content {

struct ScoringOptions {
  int min_paragraph_chars = 25;
  bool weight_classes = true;    // use class/id words in the scores
  bool include_siblings = true;  // add content-like siblings of the best candidate
};

// Candidate scores, one per node, reused across pages.
struct Scores {
  std::vector<float> value;
  std::vector<uint8_t> scored;  // 1 when value[i] is a candidate's score
  bool Has(uint32_t i) const { return scored[i] != 0; }
};

// The subtrees holding the main content, in document order; empty when no
// element scored (the caller then falls back).
std::vector<uint32_t> SelectByScore(const Document& doc, const std::vector<NodeStats>& stats,
                                    const ScoringOptions& options, Scores* scores);

// The spec's fallback chain: <article>, <main>, [role=main], #content, then
// the element with the most text of its own, then the body.
uint32_t SelectFallback(const Document& doc, const std::vector<NodeStats>& stats);

}  // namespace pagesieve::content
