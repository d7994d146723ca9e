#pragma once

// Builds a Document from HTML: the tokenizer's output plus the HTML rules
// that decide where elements end when the markup does not say (implied end
// tags, end tags that close what they enclose, stray end tags ignored).
// Internal.
//
// Depth is capped: an element that would open below `max_depth` is not
// created and its content joins its ancestor at the cap, so no walk of the
// tree, and no search of the open-element stack, costs more than max_depth
// steps. Together with a single-pass tokenizer this keeps the build linear
// in the input for any input.
//
// Not thread-safe; reuse one builder (and one Document) per thread.

#include <string_view>
#include <vector>

#include "content/class_hints.h"
#include "content/dom.h"
#include "content/html_tokenizer.h"

namespace pagesieve::content {

class TreeBuilder {
 public:
  explicit TreeBuilder(int max_depth) : max_depth_(max_depth < 2 ? 2 : max_depth) {}

  // Replaces `doc`'s content with the tree of `html`.
  void Build(std::string_view html, Document* doc);

 private:
  struct OpenElement {
    uint32_t node;
    Tag tag;
    std::string_view name;  // for unknown tags, matched by name
  };

  void StartTag(const HtmlToken& token);
  void EndTag(const HtmlToken& token);
  void Text(std::string_view raw);
  bool HandleHeadOnlyTag(const HtmlToken& token);
  void ReadMetaTitle(const HtmlToken& token);
  void CloseImplied(Tag tag);
  void ApplyAttributes(const HtmlToken& token, Node* node);
  // Records a new text node in Document::phrase_candidates when it could
  // be a heading's boilerplate label.
  void NotePhraseCandidate(uint32_t index);
  uint32_t AddNode(Tag tag);
  void Push(uint32_t node, const HtmlToken& token);
  void Pop();
  void PopThrough(size_t stack_index);
  // The stack index of the innermost open `tag` reachable without crossing
  // a scope boundary (or one of `stops`), or -1.
  int FindInScope(Tag tag, std::string_view name, uint16_t stop_traits) const;
  void CloseIfInScope(Tag tag, uint16_t stop_traits);
  void CloseListItem(Tag a, Tag b);
  void CloseHead();
  uint32_t Current() const { return stack_.empty() ? 0 : stack_.back().node; }

  const int max_depth_;
  HtmlTokenizer* tokenizer_ = nullptr;
  Document* doc_ = nullptr;
  std::vector<OpenElement> stack_;
  ClassVerdictCache class_verdicts_;
  int open_links_ = 0;
  int open_paragraphs_ = 0;
  int open_foreign_ = 0;   // <svg> or <math>: foreign content parsing rules
  int open_svg_ = 0;       // <svg>: graphics, never text
  int open_articles_ = 0;  // <article> or <main>
  bool in_head_ = false;
};

}  // namespace pagesieve::content
