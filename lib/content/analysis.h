#pragma once

// What the extractor measures on a parsed page: per-element text statistics
// after boilerplate removal, computed in one reverse pass over the nodes
// (children before parents, no recursion). Internal.

#include <cstdint>
#include <vector>

#include "content/dom.h"

namespace pagesieve::content {

// How strict boilerplate removal is. The extractor relaxes it step by step
// when the strict pass leaves too little text (as Readability does).
struct RemovalPolicy {
  double link_density_max = 0.8;
  bool strip_by_class = true;  // remove elements whose class/id say boilerplate
  bool keep_noscript = false;  // read <noscript> fallbacks as content (the last resort)
};

// Statistics of one element's subtree, removed parts excluded.
struct NodeStats {
  uint32_t chars = 0;
  uint32_t link_chars = 0;
  uint32_t inline_chars = 0;  // text whose nearest block ancestor is this node
  uint32_t heading_chars = 0;
  uint16_t commas = 0;
  uint16_t inline_commas = 0;
  uint16_t inline_breaks = 0;  // <br> inside the inline text
  uint16_t paragraphs = 0;
  uint16_t images = 0;
  uint16_t list_items = 0;
  uint16_t inputs = 0;
  uint16_t embeds = 0;
  uint16_t prose_blocks = 0;  // blocks with a long run of text of their own
  bool removed = false;

  double LinkDensity() const { return chars == 0 ? 0.0 : double(link_chars) / chars; }
};

// Finds the boxes headed by a label such as "Related articles" or "3
// Comments" (the heading is the box's first text) among the headings the
// tree builder noted (Document::phrase_candidates), and sets their
// Node::phrase to the label's TextRole. Once per page: passes reuse it.
void MarkPhraseBoxes(Document* doc);

// Fills `stats` (one entry per node) for `doc` under `policy`.
void ComputeStats(const Document& doc, const RemovalPolicy& policy, std::vector<NodeStats>* stats);

// The element's children that are elements, in order (used by selection).
template <typename Fn>
void ForEachChild(const Document& doc, uint32_t parent, Fn&& fn) {
  const uint32_t end = doc.nodes[parent].end;
  for (uint32_t c = parent + 1; c < end; c = doc.nodes[c].end) fn(c);
}

}  // namespace pagesieve::content
