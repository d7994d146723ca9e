#include "content/blocks.h"

#include <cmath>

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
  const bool figure = (img > 1 || length < 25) && HasFigureAncestor(doc, i, options.max_depth);
  return (img > 1 && p / img < 0.5 && !figure) || (!is_list && li > p) ||
         (st.inputs > std::floor(p / 3)) ||
         (!is_list && heading_density < 0.9 && length < 25 && (img == 0 || img > 2) && !figure) ||
         (!is_list && weight < 25 && link_density > 0.2) || (weight >= 25 && link_density > 0.5) ||
         (st.embeds == 1 && length < 75) || st.embeds > 1;
}

// Collects the text of one walk into blocks, joining text nodes with
// single spaces.
class BlockWriter {
 public:
  explicit BlockWriter(std::vector<TextBlock>* out) : out_(out) {}

  void Text(std::string_view text) {
    if (text.empty()) return;
    if (text.front() == ' ' && (current_.empty() || current_.back() == ' ')) text.remove_prefix(1);
    current_.append(text);
  }
  void Break() {
    while (!current_.empty() && current_.back() == ' ') current_.pop_back();
    if (!current_.empty()) {
      out_->push_back({heading_ ? TextBlock::Kind::kHeading : TextBlock::Kind::kParagraph,
                       std::move(current_)});
    }
    current_.clear();
  }
  void SetHeading(bool heading) { heading_ = heading; }

 private:
  std::vector<TextBlock>* out_;
  std::string current_;
  bool heading_ = false;
};

struct OpenBlock {
  uint32_t end;
  bool heading;
};

void EmitSubtree(const Document& doc, const std::vector<NodeStats>& stats, const Scores& scores,
                 uint32_t root, const EmitOptions& options, BlockWriter* writer) {
  std::vector<OpenBlock> open;  // depth is bounded by the builder's cap
  const uint32_t end = doc.nodes[root].end;
  for (uint32_t i = root; i < end;) {
    while (!open.empty() && open.back().end <= i) {
      writer->Break();
      open.pop_back();
      writer->SetHeading(!open.empty() && open.back().heading);
    }
    const Node& node = doc.nodes[i];
    if (node.tag == Tag::kText) {
      if (!(node.flags & kForeign)) writer->Text(doc.TextOf(node));
      ++i;
      continue;
    }
    if (stats[i].removed ||
        (i != root && options.clean_conditionally && DropsConditionally(doc, stats, scores, i, options)) ||
        (HasTrait(node.tag, kHeading) && options.weight_classes && node.class_weight < 0)) {
      i = node.end;
      continue;
    }
    if (node.tag == Tag::kBr || node.tag == Tag::kHr) {
      writer->Break();
    } else if (HasTrait(node.tag, kBlock)) {
      writer->Break();
      const bool heading = HasTrait(node.tag, kHeading) || (!open.empty() && open.back().heading);
      open.push_back({node.end, heading});
      writer->SetHeading(heading);
    }
    ++i;
  }
  writer->Break();
  writer->SetHeading(false);
}

}  // namespace

void EmitBlocks(const Document& doc, const std::vector<NodeStats>& stats, const Scores& scores,
                const std::vector<uint32_t>& roots, const EmitOptions& options,
                std::vector<TextBlock>* out) {
  BlockWriter writer(out);
  for (uint32_t root : roots) EmitSubtree(doc, stats, scores, root, options, &writer);
}

}  // namespace pagesieve::content
