#include "content/tree_builder.h"

#include <algorithm>
#include <initializer_list>

#include "content/boilerplate_text.h"
#include "content/class_hints.h"
#include "content/html_entities.h"
#include "content/media_type.h"
#include "content/text_append.h"

namespace pagesieve::content {
namespace {

bool IsHeadContent(Tag tag) {
  return tag == Tag::kTitle || tag == Tag::kMeta || tag == Tag::kLink || tag == Tag::kBase ||
         tag == Tag::kScript || tag == Tag::kStyle || tag == Tag::kNoscript ||
         tag == Tag::kTemplate;
}

// Void elements worth a node: line breaks, rules, and what conditional
// cleaning counts (images, inputs, embeds).
bool KeepVoid(Tag tag) {
  return tag == Tag::kBr || tag == Tag::kHr || tag == Tag::kImg || tag == Tag::kInput ||
         tag == Tag::kEmbed;
}

bool IsAllSpace(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return IsAsciiSpace(c); });
}

bool StyleHides(std::string_view style) {
  // "display: none", "visibility:hidden", in any case and spacing.
  std::string compact;
  for (char c : style.substr(0, 512)) {
    if (!IsAsciiSpace(c)) compact.push_back(AsciiLower(c));
  }
  return compact.find("display:none") != std::string::npos ||
         compact.find("visibility:hidden") != std::string::npos;
}

uint16_t RoleFlags(std::string_view role) {
  role = TrimAsciiSpace(role);
  role = role.substr(0, role.find(' '));
  for (std::string_view r : {"navigation", "banner", "complementary", "contentinfo", "menu",
                             "menubar", "search", "dialog", "alertdialog"}) {
    if (EqualsIgnoreCase(role, r)) return kRoleBoilerplate;
  }
  return EqualsIgnoreCase(role, "main") ? kRoleMain : 0;
}

bool SameNameIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != AsciiLower(b[i])) return false;
  }
  return true;
}

}  // namespace

void TreeBuilder::Build(std::string_view html, Document* doc) {
  doc->Clear();
  doc_ = doc;
  stack_.clear();
  open_links_ = open_paragraphs_ = open_foreign_ = open_svg_ = open_articles_ = 0;
  in_head_ = false;
  Node root;
  root.tag = Tag::kRoot;
  doc->nodes.push_back(root);

  HtmlTokenizer tokenizer(html);
  tokenizer_ = &tokenizer;
  HtmlToken token;
  for (tokenizer.Next(&token); token.kind != HtmlToken::Kind::kEnd; tokenizer.Next(&token)) {
    switch (token.kind) {
      case HtmlToken::Kind::kStartTag:
        StartTag(token);
        break;
      case HtmlToken::Kind::kEndTag:
        EndTag(token);
        break;
      case HtmlToken::Kind::kText:
        Text(token.text);
        break;
      case HtmlToken::Kind::kEnd:
        break;
    }
  }
  while (!stack_.empty()) Pop();
  doc->nodes[0].end = static_cast<uint32_t>(doc->nodes.size());
  tokenizer_ = nullptr;
}

void TreeBuilder::StartTag(const HtmlToken& token) {
  Tag tag = token.tag;
  if (open_foreign_ > 0) {
    // Inside SVG/MathML no HTML rule applies; self-closing tags are honoured.
    if (tag != Tag::kSvg && tag != Tag::kMath) tag = Tag::kUnknown;
    if (static_cast<int>(stack_.size()) >= max_depth_) return;
    const uint32_t node = AddNode(tag);
    if (!token.self_closing) Push(node, token);
    return;
  }
  if (HandleHeadOnlyTag(token)) return;
  if (in_head_ && !IsHeadContent(tag)) CloseHead();
  if (HasTrait(tag, kRawText | kEscapableRaw)) {
    if (tag == Tag::kPlaintext) {
      Text(tokenizer_->ReadToEnd());
    } else {
      tokenizer_->ReadRawText(TagName(tag));  // never main text
    }
    return;
  }
  if (HasTrait(tag, kVoid)) {
    if (KeepVoid(tag)) {
      CloseImplied(tag);
      AddNode(tag);
    }
    return;
  }
  CloseImplied(tag);
  if (static_cast<int>(stack_.size()) >= max_depth_) return;  // flattened
  const uint32_t node = AddNode(tag);
  ApplyAttributes(token, &doc_->nodes[node]);
  if (tag == Tag::kUnknown && token.self_closing) return;
  Push(node, token);
}

// html, head, body, title and meta: document-level tags that make no
// ordinary node. True when `token` was one of them.
bool TreeBuilder::HandleHeadOnlyTag(const HtmlToken& token) {
  switch (token.tag) {
    case Tag::kHtml:
    case Tag::kLink:
    case Tag::kBase:
      return true;
    case Tag::kHead:
      if (doc_->body == 0 && !in_head_) {
        Push(AddNode(Tag::kHead), token);
        in_head_ = true;
      }
      return true;
    case Tag::kBody:
      if (doc_->body != 0) return true;
      CloseHead();
      doc_->body = AddNode(Tag::kBody);
      ApplyAttributes(token, &doc_->nodes[doc_->body]);
      Push(doc_->body, token);
      return true;
    case Tag::kTitle: {
      const std::string_view raw = tokenizer_->ReadRawText("title");
      if (doc_->title.empty()) {
        std::string decoded;
        AppendDecoded(raw, /*in_attribute=*/false, &decoded);
        doc_->title = CollapseWhitespace(decoded);
      }
      return true;
    }
    case Tag::kMeta:
      ReadMetaTitle(token);
      return true;
    default:
      return false;
  }
}

// <meta property="og:title"> (or twitter:title, which og:title overrides).
void TreeBuilder::ReadMetaTitle(const HtmlToken& token) {
  std::string_view key, value;
  if (!token.FindAttribute("property", &key) && !token.FindAttribute("name", &key)) return;
  const bool og = EqualsIgnoreCase(key, "og:title");
  if (!og && !(EqualsIgnoreCase(key, "twitter:title") && doc_->og_title.empty())) return;
  if (!token.FindAttribute("content", &value)) return;
  std::string decoded;
  AppendDecoded(value, /*in_attribute=*/true, &decoded);
  doc_->og_title = CollapseWhitespace(decoded);
}

void TreeBuilder::CloseImplied(Tag tag) {
  const uint16_t traits = Traits(tag);
  if ((traits & kClosesP) && open_paragraphs_ > 0) CloseIfInScope(Tag::kP, kScope);
  switch (tag) {
    case Tag::kLi:
      CloseListItem(Tag::kLi, Tag::kLi);
      break;
    case Tag::kDd:
    case Tag::kDt:
      CloseListItem(Tag::kDd, Tag::kDt);
      break;
    case Tag::kTd:
    case Tag::kTh:
    case Tag::kTr:
      // A new cell ends the open cell of its row; a new row ends the open
      // row of its table (and the cell in it).
      for (size_t i = stack_.size(); i-- > 0;) {
        const Tag open = stack_[i].tag;
        if (open == Tag::kTable || (tag != Tag::kTr && open == Tag::kTr)) break;
        if (tag == Tag::kTr ? open == Tag::kTr : (open == Tag::kTd || open == Tag::kTh)) {
          PopThrough(i);
          break;
        }
      }
      break;
    case Tag::kA:
      if (open_links_ > 0) CloseIfInScope(Tag::kA, kScope);
      break;
    case Tag::kOption:
      if (!stack_.empty() && stack_.back().tag == Tag::kOption) Pop();
      break;
    default:
      if ((traits & kHeading) && !stack_.empty() && HasTrait(stack_.back().tag, kHeading)) Pop();
      break;
  }
}

// An item ends the open item of its list, looking through inline elements,
// <div>, <p> and <address> only (so a nested list's item never ends the
// outer one).
void TreeBuilder::CloseListItem(Tag a, Tag b) {
  for (size_t i = stack_.size(); i-- > 0;) {
    const Tag open = stack_[i].tag;
    if (open == a || open == b) {
      PopThrough(i);
      return;
    }
    if (HasTrait(open, kBlock | kScope) && open != Tag::kDiv && open != Tag::kP &&
        open != Tag::kAddress) {
      return;
    }
  }
}

void TreeBuilder::EndTag(const HtmlToken& token) {
  Tag tag = token.tag;
  if (open_foreign_ > 0 && tag != Tag::kSvg && tag != Tag::kMath) tag = Tag::kUnknown;
  switch (tag) {
    case Tag::kHtml:
    case Tag::kBody:
      return;  // content after </body> still belongs to the body
    case Tag::kHead:
      CloseHead();
      return;
    case Tag::kBr:
      AddNode(Tag::kBr);  // </br> is read as <br>
      return;
    case Tag::kP:
      if (open_paragraphs_ == 0) return;
      break;
    default:
      break;
  }
  // A block's end tag closes what it encloses up to a scope boundary; an
  // inline one also stops at blocks, so a stray </span> cannot end a <div>.
  const uint16_t stops = HasTrait(tag, kBlock) ? kScope : (kScope | kBlock);
  int index = FindInScope(tag, token.name, stops);
  if (index < 0 && HasTrait(tag, kHeading)) {
    // </h3> closing an <h2>: any heading end tag ends the open heading.
    for (Tag h : {Tag::kH1, Tag::kH2, Tag::kH3, Tag::kH4, Tag::kH5, Tag::kH6}) {
      index = std::max(index, FindInScope(h, {}, stops));
    }
  }
  if (index >= 0) PopThrough(index);
}

void TreeBuilder::Text(std::string_view raw) {
  if (in_head_) {
    if (IsAllSpace(raw)) return;
    CloseHead();
  }
  std::vector<Node>& nodes = doc_->nodes;
  const uint32_t parent = Current();
  // Consecutive text (split around a literal '<') extends the same node.
  const bool created = nodes.back().tag != Tag::kText || nodes.back().parent != parent;
  if (created) {
    Node text;
    text.tag = Tag::kText;
    text.parent = parent;
    text.text_begin = static_cast<uint32_t>(doc_->text.size());
    text.end = static_cast<uint32_t>(nodes.size() + 1);
    if (open_links_ > 0) text.flags |= kInLink;
    if (open_svg_ > 0) text.flags |= kForeign;
    nodes.push_back(text);
  }
  Node& node = nodes.back();
  bool after_space = node.text_size > 0 && doc_->text.back() == ' ';
  TextStats stats;
  AppendCollapsedText(raw, &after_space, &doc_->text, &stats);
  node.text_size += stats.bytes;
  node.chars += stats.chars;
  node.commas = static_cast<uint16_t>(std::min<uint32_t>(node.commas + stats.commas, 0xFFFF));
  const Tag parent_tag = nodes[parent].tag;
  if (created && parent_tag >= Tag::kH1 && parent_tag <= Tag::kH6) {
    NotePhraseCandidate(static_cast<uint32_t>(nodes.size() - 1));
  }
}

// The text of a heading that starts with a word a label starts with
// ("Related articles", "3 Comments"): the extractor looks for the box it
// heads. Tested here, while the text is in cache; link text heads nothing.
void TreeBuilder::NotePhraseCandidate(uint32_t index) {
  const Node& node = doc_->nodes[index];
  if (node.flags & (kForeign | kInLink)) return;
  if (MayBeBoilerplateText(doc_->TextOf(node))) doc_->phrase_candidates.push_back(index);
}

void TreeBuilder::ApplyAttributes(const HtmlToken& token, Node* node) {
  int weight = 0;
  for (size_t i = 0; i < token.attribute_count; ++i) {
    const HtmlAttribute& a = token.attributes[i];
    if (EqualsIgnoreCase(a.name, "class") || EqualsIgnoreCase(a.name, "id")) {
      const ClassVerdict verdict = class_verdicts_.Classify(a.value);
      node->class_hints |= verdict.hints;
      weight += verdict.weight;
      if (EqualsIgnoreCase(a.name, "id") && EqualsIgnoreCase(a.value, "content")) {
        node->flags |= kIdContent;
      }
    } else if (EqualsIgnoreCase(a.name, "role")) {
      node->flags |= RoleFlags(a.value);
    } else if (EqualsIgnoreCase(a.name, "hidden")) {
      node->flags |= kHidden;
    } else if (EqualsIgnoreCase(a.name, "aria-hidden")) {
      if (EqualsIgnoreCase(TrimAsciiSpace(a.value), "true")) node->flags |= kHidden;
    } else if (EqualsIgnoreCase(a.name, "style")) {
      if (StyleHides(a.value)) node->flags |= kHidden;
    } else if (EqualsIgnoreCase(a.name, "itemprop")) {
      if (EqualsIgnoreCase(TrimAsciiSpace(a.value), "articlebody")) {
        node->flags |= kArticleBody;
        doc_->article_bodies.push_back(static_cast<uint32_t>(node - doc_->nodes.data()));
      }
    }
  }
  node->class_weight = static_cast<int8_t>(std::clamp(weight, -50, 50));
}

uint32_t TreeBuilder::AddNode(Tag tag) {
  std::vector<Node>& nodes = doc_->nodes;
  const uint32_t index = static_cast<uint32_t>(nodes.size());
  Node node;
  node.tag = tag;
  node.parent = Current();
  node.end = index + 1;
  if (open_svg_ > 0) node.flags |= kForeign;
  if (open_articles_ > 0) node.flags |= kInArticle;
  if (HasTrait(tag, kBlock)) nodes[node.parent].flags |= kHasBlockChild;
  nodes.push_back(node);
  return index;
}

void TreeBuilder::Push(uint32_t node, const HtmlToken& token) {
  const Tag tag = doc_->nodes[node].tag;
  stack_.push_back({node, tag, token.name});
  if (tag == Tag::kA) ++open_links_;
  if (tag == Tag::kP) ++open_paragraphs_;
  if (tag == Tag::kSvg || tag == Tag::kMath) ++open_foreign_;
  if (tag == Tag::kSvg) ++open_svg_;
  if (tag == Tag::kArticle || tag == Tag::kMain) ++open_articles_;
}

void TreeBuilder::Pop() {
  const OpenElement& top = stack_.back();
  doc_->nodes[top.node].end = static_cast<uint32_t>(doc_->nodes.size());
  if (top.tag == Tag::kA) --open_links_;
  if (top.tag == Tag::kP) --open_paragraphs_;
  if (top.tag == Tag::kSvg || top.tag == Tag::kMath) --open_foreign_;
  if (top.tag == Tag::kSvg) --open_svg_;
  if (top.tag == Tag::kArticle || top.tag == Tag::kMain) --open_articles_;
  stack_.pop_back();
}

void TreeBuilder::PopThrough(size_t stack_index) {
  while (stack_.size() > stack_index) Pop();
}

int TreeBuilder::FindInScope(Tag tag, std::string_view name, uint16_t stop_traits) const {
  for (size_t i = stack_.size(); i-- > 0;) {
    const OpenElement& open = stack_[i];
    const bool same = tag == Tag::kUnknown
                          ? open.tag == Tag::kUnknown && SameNameIgnoringCase(open.name, name)
                          : open.tag == tag;
    if (same) return static_cast<int>(i);
    if (HasTrait(open.tag, stop_traits)) return -1;
  }
  return -1;
}

void TreeBuilder::CloseHead() {
  if (!in_head_) return;
  const int head = FindInScope(Tag::kHead, {}, 0);
  if (head >= 0) PopThrough(head);
  in_head_ = false;
}

void TreeBuilder::CloseIfInScope(Tag tag, uint16_t stop_traits) {
  const int index = FindInScope(tag, {}, stop_traits);
  if (index >= 0) PopThrough(index);
}

}  // namespace pagesieve::content
