#pragma once

// The compact tree lib/content parses a page into. Internal.
//
// Nodes live in one vector in document (pre-)order, so a subtree is a
// contiguous range [index, end) and every walk is a loop, never a
// recursion. Text is decoded and whitespace-collapsed into one buffer that
// text nodes point into. Both vectors keep their capacity across pages (the
// extractor's arena), so a page costs no allocation once they have grown.

#include <cstdint>
#include <string>
#include <vector>

#include "content/html_tags.h"

namespace pagesieve::content {

// What the parser saw on a node (Node::flags).
enum NodeFlag : uint16_t {
  kInLink = 1 << 0,           // text node inside an <a>
  kHidden = 1 << 1,           // hidden, aria-hidden, display:none, visibility:hidden
  kRoleBoilerplate = 1 << 2,  // role=navigation|banner|complementary|contentinfo...
  kRoleMain = 1 << 3,         // role=main
  kHasBlockChild = 1 << 4,    // an element child starts a block
  kIdContent = 1 << 5,        // id="content"
  kArticleBody = 1 << 6,      // itemprop=articleBody
  kForeign = 1 << 7,          // inside <svg>
  kInArticle = 1 << 8,        // inside <article> or <main>
};

struct Node {
  uint32_t parent = 0;
  uint32_t end = 0;         // one past the last descendant
  uint32_t text_begin = 0;  // text nodes: the text is Document::text[begin, begin + size)
  uint32_t text_size = 0;
  uint32_t chars = 0;   // text nodes: code points of the text
  uint16_t commas = 0;  // text nodes: commas in the text
  uint16_t flags = 0;   // NodeFlag bits
  Tag tag = Tag::kUnknown;
  uint8_t class_hints = 0;  // ClassHint bits of the class and id attributes
  int8_t class_weight = 0;  // readability-style weight of class and id: -50..50
  uint8_t phrase = 0;       // elements: the TextRole of the label heading them (MarkPhraseBoxes)
};

struct Document {
  std::vector<Node> nodes;  // nodes[0] is the root
  std::string text;
  std::string title;     // <title>, decoded and collapsed
  std::string og_title;  // <meta property="og:title">, or twitter:title
  uint32_t body = 0;     // the <body> element, or 0 (the root) when absent
  // Text nodes starting a heading with a word a boilerplate label starts
  // with ("Related", "3 Comments"), in document order.
  std::vector<uint32_t> phrase_candidates;
  std::vector<uint32_t> article_bodies;  // elements with itemprop=articleBody

  void Clear() {
    nodes.clear();
    text.clear();
    title.clear();
    og_title.clear();
    body = 0;
    phrase_candidates.clear();
    article_bodies.clear();
  }
  std::string_view TextOf(const Node& node) const {
    return std::string_view(text).substr(node.text_begin, node.text_size);
  }
};

}  // namespace pagesieve::content
