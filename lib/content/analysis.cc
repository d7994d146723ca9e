#include "content/analysis.h"

#include <algorithm>

#include "content/boilerplate_text.h"
#include "content/class_hints.h"

namespace pagesieve::content {
namespace {

// A <form> this large is a page wrapped in a form (ASP.NET does that), not
// a search box or a comment form.
constexpr uint32_t kFormWrapperChars = 1000;
// An element holding this many prose blocks is content whatever its class.
constexpr uint16_t kProseBlocksToKeep = 3;
// A block with this much text of its own is prose.
constexpr uint32_t kProseChars = 80;
// A heading longer than this is not a label.
constexpr uint32_t kMaxLabelChars = 80;
// How far (in nodes) from a label its box is looked for: bounds the work.
constexpr uint32_t kMaxBoxSearch = 64;

uint16_t Add16(uint16_t a, uint32_t b) {
  return static_cast<uint16_t>(std::min<uint32_t>(a + b, 0xFFFF));
}

bool RemovedByMarkup(const Node& node, const NodeStats& st, const RemovalPolicy& policy) {
  if (node.tag == Tag::kBody || node.tag == Tag::kRoot) return false;
  if (node.flags & (kHidden | kRoleBoilerplate | kForeign)) return true;
  if (node.tag == Tag::kNoscript) return !policy.keep_noscript;
  if (HasTrait(node.tag, kBoilerplate)) {
    // An article's own <header> holds its title and lead, not site chrome.
    if (node.tag == Tag::kHeader && (node.flags & kInArticle)) return false;
    if (node.tag == Tag::kHeader && st.prose_blocks >= 2 && st.LinkDensity() < 0.3) return false;
    return node.tag != Tag::kForm || st.chars - st.link_chars < kFormWrapperChars;
  }
  if (node.class_hints & kHintComments) return policy.strip_by_class;
  if (policy.strip_by_class && (node.class_hints & kHintBoilerplate) &&
      !(node.class_hints & kHintProtect) && node.tag != Tag::kArticle && node.tag != Tag::kMain &&
      node.tag != Tag::kA) {
    // "above-footer", "no-sub-nav", "hasHeaderImage": a word of the class
    // names a neighbour, not this element, when it holds plenty of prose.
    return st.prose_blocks < kProseBlocksToKeep || st.LinkDensity() > 0.3;
  }
  return false;
}

// A box headed by a teaser label (related articles, newsletter) holds
// teasers, unless it holds plenty of prose; one headed by a comments or
// author label holds the comments, the bio.
bool RemovedByPhrase(const Node& node, const NodeStats& st) {
  if (node.tag == Tag::kBody || node.tag == Tag::kRoot || node.tag == Tag::kArticle ||
      node.tag == Tag::kMain) {
    return false;
  }
  if (static_cast<TextRole>(node.phrase) == TextRole::kTailLabel) return true;
  return st.prose_blocks < kProseBlocksToKeep || st.LinkDensity() > 0.3;
}

bool LinkDense(const Node& node, const NodeStats& st, const RemovalPolicy& policy) {
  if (!HasTrait(node.tag, kBlock) || node.tag == Tag::kBody || node.tag == Tag::kRoot) {
    return false;
  }
  return st.chars > 0 && st.link_chars > policy.link_density_max * st.chars;
}

void CountOwn(const Node& node, NodeStats* st) {
  switch (node.tag) {
    case Tag::kP:
      st->paragraphs = Add16(st->paragraphs, 1);
      break;
    case Tag::kImg:
      st->images = Add16(st->images, 1);
      break;
    case Tag::kLi:
      st->list_items = Add16(st->list_items, 1);
      break;
    case Tag::kInput:
      st->inputs = Add16(st->inputs, 1);
      break;
    default:
      if (HasTrait(node.tag, kEmbedded)) st->embeds = Add16(st->embeds, 1);
      if (HasTrait(node.tag, kHeading)) st->heading_chars = st->chars;
      break;
  }
}

void AddToParent(const Node& node, const NodeStats& st, NodeStats* parent) {
  parent->chars += st.chars;
  parent->link_chars += st.link_chars;
  parent->heading_chars += st.heading_chars;
  parent->commas = Add16(parent->commas, st.commas);
  parent->paragraphs = Add16(parent->paragraphs, st.paragraphs);
  parent->images = Add16(parent->images, st.images);
  parent->list_items = Add16(parent->list_items, st.list_items);
  parent->inputs = Add16(parent->inputs, st.inputs);
  parent->embeds = Add16(parent->embeds, st.embeds);
  parent->prose_blocks = Add16(parent->prose_blocks, st.prose_blocks);
  if (!HasTrait(node.tag, kBlock)) {  // text and inline elements flow into the block
    parent->inline_chars += st.inline_chars;
    parent->inline_commas = Add16(parent->inline_commas, st.inline_commas);
    parent->inline_breaks = Add16(parent->inline_breaks, st.inline_breaks + (node.tag == Tag::kBr));
  }
}

// Whether a text node with visible text lies in (from, to).
bool TextBetween(const Document& doc, uint32_t from, uint32_t to) {
  for (uint32_t i = from + 1; i < to; ++i) {
    const Node& node = doc.nodes[i];
    if (node.tag == Tag::kText && node.chars > 0 && doc.TextOf(node) != " ") return true;
  }
  return false;
}

// The box a heading labels: its lowest ancestor with text after the
// heading, provided the heading holds that ancestor's first text. 0 if
// none within kMaxBoxSearch nodes.
uint32_t BoxOfHeading(const Document& doc, uint32_t heading) {
  const uint32_t after = doc.nodes[heading].end;
  for (uint32_t a = heading; a != 0 && a != doc.body;) {
    const uint32_t parent = doc.nodes[a].parent;
    if (parent == 0 || parent == doc.body || heading - parent > kMaxBoxSearch ||
        TextBetween(doc, parent, heading)) {
      return 0;
    }
    const uint32_t end = std::min(doc.nodes[parent].end, after + kMaxBoxSearch);
    if (TextBetween(doc, after - 1, end)) return parent;
    a = parent;
  }
  return 0;
}

}  // namespace

void MarkPhraseBoxes(Document* doc) {
  for (uint32_t i : doc->phrase_candidates) {
    const Node& node = doc->nodes[i];
    if (node.chars > kMaxLabelChars) continue;
    const TextRole role = ClassifyBlockText(doc->TextOf(node));
    if (role != TextRole::kTeaserLabel && role != TextRole::kTailLabel) continue;
    const uint32_t box = BoxOfHeading(*doc, node.parent);
    if (box != 0) doc->nodes[box].phrase = static_cast<uint8_t>(role);
  }
}

void ComputeStats(const Document& doc, const RemovalPolicy& policy, std::vector<NodeStats>* stats) {
  const size_t n = doc.nodes.size();
  stats->assign(n, NodeStats{});
  for (size_t i = n; i-- > 1;) {
    const Node& node = doc.nodes[i];
    NodeStats& st = (*stats)[i];
    if (node.tag == Tag::kText) {
      if (node.flags & kForeign) continue;
      st.chars = node.chars;
      st.link_chars = (node.flags & kInLink) ? node.chars : 0;
      st.inline_chars = node.chars;
      st.commas = st.inline_commas = node.commas;
    } else {
      CountOwn(node, &st);
      if (HasTrait(node.tag, kBlock) && st.inline_chars >= kProseChars) {
        st.prose_blocks = Add16(st.prose_blocks, 1);
      }
      st.removed = RemovedByMarkup(node, st, policy) || LinkDense(node, st, policy) ||
                   (node.phrase != 0 && RemovedByPhrase(node, st));
      if (st.removed) continue;
    }
    AddToParent(node, st, &(*stats)[node.parent]);
  }
}

}  // namespace pagesieve::content
