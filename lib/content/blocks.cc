#include "content/blocks.h"

#include <cmath>

#include "content/boilerplate_text.h"

namespace pagesieve::content {
namespace {

bool HasFigureAncestor(const Document& doc, uint32_t i, int max_steps) {
  for (int step = 0; i != 0 && step < max_steps; ++step) {
    i = doc.nodes[i].parent;
    if (doc.nodes[i].tag == Tag::kFigure) return true;
  }
  return false;
}

// Readability's _cleanConditionally, for one table, list or division.
bool DropsConditionally(const Document& doc, const std::vector<NodeStats>& stats,
                        const Scores& scores, uint32_t i, const EmitOptions& options) {
  const Node& node = doc.nodes[i];
  const Tag tag = node.tag;
  if (tag != Tag::kTable && tag != Tag::kUl && tag != Tag::kOl && tag != Tag::kDiv &&
      tag != Tag::kSection && tag != Tag::kFieldset) {
    return false;
  }
  const NodeStats& st = stats[i];
  const int weight = options.weight_classes ? node.class_weight : 0;
  const float score = scores.Has(i) ? scores.value[i] : 0.0f;
  if (weight + score < 0) return true;
  if (st.commas >= 10) return false;
  const bool is_list = tag == Tag::kUl || tag == Tag::kOl;
  const double p = st.paragraphs;
  const double img = st.images;
  const double li = double(st.list_items) - 100;
  const double heading_density = st.chars == 0 ? 0 : double(st.heading_chars) / st.chars;
  const double link_density = st.LinkDensity();
  const uint32_t length = st.chars;
  // Readability also drops image-heavy blocks (more than one image, under
  // two paragraphs per image); on the annotated pages that loses text.
  const bool figure = length < 25 && HasFigureAncestor(doc, i, options.max_depth);
  return (!is_list && li > p) || (st.inputs > std::floor(p / 3)) ||
         (!is_list && heading_density < 0.9 && length < 25 && (img == 0 || img > 2) && !figure) ||
         (!is_list && weight < 25 && link_density > 0.2) || (weight >= 25 && link_density > 0.5) ||
         (st.embeds == 1 && length < 75) || st.embeds > 1;
}

// Collects the text of one walk into blocks, joining text nodes with
// single spaces. A heading is held back until text follows it: a heading
// whose section is empty (its links and teasers were removed: "Related
// articles", "Share this") is dropped when a heading of the same or a
// higher rank, or the end, comes first.
class BlockWriter {
 public:
  explicit BlockWriter(std::vector<TextBlock>* out) : out_(out) {}

  void Text(std::string_view text, bool in_link) {
    if (text.empty()) return;
    if (text.front() == ' ' && (current_.empty() || current_.back() == ' ')) text.remove_prefix(1);
    current_.append(text);
    if (in_link) link_bytes_ += text.size();
  }
  void Break() {
    while (!current_.empty() && current_.back() == ' ') current_.pop_back();
    const size_t link_bytes = link_bytes_;
    link_bytes_ = 0;
    if (current_.empty()) return;
    if (Skips(link_bytes)) {
      current_.clear();
      return;
    }
    if (level_ > 0) {
      while (!pending_.empty() && pending_.back().level >= level_) pending_.pop_back();
      pending_.push_back({level_, std::move(current_)});
    } else {
      for (Pending& h : pending_) out_->push_back({TextBlock::Kind::kHeading, std::move(h.text)});
      pending_.clear();
      out_->push_back({TextBlock::Kind::kParagraph, std::move(current_)});
    }
    current_.clear();
  }
  // At the end: headings still held back are dropped, unless they are all
  // the page has.
  void Finish() {
    Break();
    if (out_->empty()) {
      for (Pending& h : pending_) out_->push_back({TextBlock::Kind::kHeading, std::move(h.text)});
    }
    pending_.clear();
    TrimEdges();
  }
  // `level`: 1..6 for h1..h6, 0 for body text; `in_cell`: inside a table
  // cell, where a label ("Comment" atop a column) heads no section;
  // `in_item`: inside a list item.
  void SetContext(int level, bool in_cell, bool in_item) {
    level_ = level;
    in_cell_ = in_cell;
    in_item_ = in_item;
  }
  // A list item starts: it has shown no link block yet.
  void StartItem() { item_has_link_block_ = false; }

 private:
  // A short line that is not a sentence: a byline, a date, a category, a
  // "Share" or "Contact" label left over at either edge of the content.
  static bool IsStub(const TextBlock& b) {
    if (b.kind != TextBlock::Kind::kParagraph) return false;
    const char last = b.text.back();
    if (last == '.' || last == '!' || last == '?' || last == ':' || last == '"') return false;
    return b.text.size() < kStubBytes || (b.text.size() < kBylineBytes && IsByline(b.text));
  }

  // "By Jane Doe, Staff Writer", "Von Max Muster | 12.05.2021": a byline
  // names its author after a capitalized "By" or "Von".
  static bool IsByline(std::string_view text) {
    return text.starts_with("By ") || text.starts_with("Von ") || text.starts_with("BY ") ||
           text.starts_with("VON ");
  }

  // Drops the stubs at the end (with the headings they leave orphaned) and
  // at the start of the content, unless there are more than kMaxStubs in a
  // row: then they are a list (ingredients, facts), not leftovers.
  void TrimEdges() {
    std::vector<TextBlock>& b = *out_;
    size_t tail = 0;
    while (tail < b.size() && IsStub(b[b.size() - 1 - tail])) ++tail;
    if (tail <= kMaxStubs && tail < b.size()) {
      b.resize(b.size() - tail);
      while (b.size() > 1 && b.back().kind == TextBlock::Kind::kHeading) b.pop_back();
    }
    size_t first = 0;
    while (first < b.size() && b[first].kind == TextBlock::Kind::kHeading) ++first;
    size_t head = 0;
    while (first + head < b.size() && IsStub(b[first + head])) ++head;
    if (head <= kMaxStubs && first + head < b.size()) {
      b.erase(b.begin() + first, b.begin() + first + head);
    }
  }

  // Boilerplate phrases and the sections they label ("Related articles",
  // "3 Comments"), whatever the markup around them. Returns whether the
  // block in current_ is dropped.
  bool Skips(size_t link_bytes) {
    const int rank = level_ > 0 ? level_ : kNoRank;
    const bool mostly_links = link_bytes * 2 > current_.size();
    // A list item's summary under its headline link is a teaser however
    // long ("Most popular": a kicker, the headline, two lines, a byline).
    const bool summary = in_item_ && item_has_link_block_;
    item_has_link_block_ = item_has_link_block_ || (in_item_ && mostly_links);
    if (skip_ != TextRole::kContent) {
      if (level_ > 0 && level_ <= skip_rank_) {
        skip_ = TextRole::kContent;  // a heading of the label's rank ends its section
      } else if (skip_ == TextRole::kTeaserLabel && level_ == 0 && !mostly_links &&
                 ((current_.size() >= kTeaserBytes && !summary) || skip_rank_ == kNoRank)) {
        // Prose again: the teasers are over. A label that is not a heading
        // ("Lesen Sie auch:") only introduces links.
        skip_ = TextRole::kContent;
      } else {
        return true;
      }
    }
    const TextRole role = ClassifyBlockText(current_);
    if (role == TextRole::kContent) return false;
    // A label that is a link ("12 comments" in a byline) leads elsewhere:
    // it is dropped, but it heads nothing here.
    if (role != TextRole::kBoilerplate && in_cell_) return false;
    if (role != TextRole::kBoilerplate && !mostly_links) {
      skip_ = role;
      skip_rank_ = rank;
    }
    return true;
  }

  static constexpr size_t kStubBytes = 40;
  static constexpr size_t kBylineBytes = 160;
  // A paragraph this long without many links is prose, not a teaser.
  static constexpr size_t kTeaserBytes = 160;
  // The rank of a label that is not a heading: any heading ends its section.
  static constexpr int kNoRank = 7;
  static constexpr size_t kMaxStubs = 3;

  struct Pending {
    int level;
    std::string text;
  };
  std::vector<TextBlock>* out_;
  std::string current_;
  std::vector<Pending> pending_;  // at most six: one per rank
  int level_ = 0;
  bool in_cell_ = false;
  bool in_item_ = false;
  bool item_has_link_block_ = false;    // the current list item showed a block of links
  size_t link_bytes_ = 0;               // of current_, inside links
  TextRole skip_ = TextRole::kContent;  // the label whose section is being dropped
  int skip_rank_ = kNoRank;
};

int HeadingLevel(Tag tag) {
  switch (tag) {
    case Tag::kH1:
      return 1;
    case Tag::kH2:
      return 2;
    case Tag::kH3:
      return 3;
    case Tag::kH4:
      return 4;
    case Tag::kH5:
      return 5;
    case Tag::kH6:
      return 6;
    default:
      return 0;
  }
}

struct OpenBlock {
  uint32_t end;
  int heading_level;  // of the innermost heading around, 0 when none
  bool in_cell;       // inside a table cell
  bool in_item;       // inside a list item
};

void EmitSubtree(const Document& doc, const std::vector<NodeStats>& stats, const Scores& scores,
                 uint32_t root, const EmitOptions& options, BlockWriter* writer) {
  std::vector<OpenBlock> open;  // depth is bounded by the builder's cap
  const uint32_t end = doc.nodes[root].end;
  for (uint32_t i = root; i < end;) {
    while (!open.empty() && open.back().end <= i) {
      writer->Break();
      open.pop_back();
      if (open.empty()) {
        writer->SetContext(0, false, false);
      } else {
        writer->SetContext(open.back().heading_level, open.back().in_cell, open.back().in_item);
      }
    }
    const Node& node = doc.nodes[i];
    if (node.tag == Tag::kText) {
      if (!(node.flags & kForeign)) writer->Text(doc.TextOf(node), node.flags & kInLink);
      ++i;
      continue;
    }
    if (stats[i].removed ||
        (i != root && options.clean_conditionally &&
         DropsConditionally(doc, stats, scores, i, options)) ||
        (HasTrait(node.tag, kHeading) && options.weight_classes && node.class_weight < 0)) {
      i = node.end;
      continue;
    }
    if (node.tag == Tag::kBr || node.tag == Tag::kHr) {
      writer->Break();
    } else if (HasTrait(node.tag, kBlock)) {
      writer->Break();
      int level = HeadingLevel(node.tag);
      if (level == 0 && !open.empty()) level = open.back().heading_level;
      const bool in_cell = HasTrait(node.tag, kTableCell) || (!open.empty() && open.back().in_cell);
      const bool in_item = HasTrait(node.tag, kListItem) || (!open.empty() && open.back().in_item);
      if (HasTrait(node.tag, kListItem)) writer->StartItem();
      open.push_back({node.end, level, in_cell, in_item});
      writer->SetContext(level, in_cell, in_item);
    }
    ++i;
  }
  writer->Break();
  writer->SetContext(0, false, false);
}

}  // namespace

void EmitBlocks(const Document& doc, const std::vector<NodeStats>& stats, const Scores& scores,
                const std::vector<uint32_t>& roots, const EmitOptions& options,
                std::vector<TextBlock>* out) {
  BlockWriter writer(out);
  for (uint32_t root : roots) EmitSubtree(doc, stats, scores, root, options, &writer);
  writer.Finish();
}

}  // namespace pagesieve::content
