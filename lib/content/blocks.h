#pragma once

// Turning the chosen subtrees into text blocks: headings and paragraphs in
// document order, with Readability's conditional cleaning of the lists,
// tables and divisions inside the content that look like boilerplate
// (mostly links, images or inputs, or too little text). Internal.

#include <cstdint>
#include <vector>

#include "content/analysis.h"
#include "content/content.h"
#include "content/dom.h"
#include "content/scoring.h"

namespace pagesieve::content {

struct EmitOptions {
  bool clean_conditionally = true;
  bool weight_classes = true;
  int max_depth = 256;
};

// Appends the blocks of the subtrees `roots` to `out`.
void EmitBlocks(const Document& doc, const std::vector<NodeStats>& stats, const Scores& scores,
                const std::vector<uint32_t>& roots, const EmitOptions& options,
                std::vector<TextBlock>* out);

}  // namespace pagesieve::content
