// Extractor: parse, measure, score, emit; relax boilerplate removal step by
// step when the strict pass finds too little text (Readability's retries).

#include <string>
#include <vector>

#include "content/analysis.h"
#include "content/blocks.h"
#include "content/confidence.h"
#include "content/content.h"
#include "content/dom.h"
#include "content/scoring.h"
#include "content/text_append.h"
#include "content/title.h"
#include "content/tree_builder.h"

namespace pagesieve::content {
namespace {

// Below this many characters of main text, the next, laxer pass runs.
constexpr size_t kEnoughChars = 500;
// A strict result shorter than this may be replaced by any longer one.
constexpr size_t kTinyChars = 150;
// Buffers grown past this by a huge page are released afterwards, so one
// outlier does not pin its memory for the life of the thread.
constexpr size_t kRetainedNodes = 1 << 20;
constexpr size_t kRetainedTextBytes = 16 << 20;

struct Pass {
  bool strip_by_class;
  bool weight_classes;
  bool clean_conditionally;
  bool keep_noscript;
};
constexpr Pass kPasses[] = {{true, true, true, false},
                            {false, true, true, false},
                            {false, false, true, false},
                            {false, false, false, false},
                            {false, false, false, true}};

size_t TotalChars(const std::vector<TextBlock>& blocks) {
  size_t n = 0;
  for (const TextBlock& b : blocks) n += b.text.size();
  return n;
}

// Whether every subtree of `inner` lies inside one of `outer`.
bool Covers(const Document& doc, const std::vector<uint32_t>& outer,
            const std::vector<uint32_t>& inner) {
  for (uint32_t r : inner) {
    bool inside = false;
    for (uint32_t o : outer) inside = inside || (r >= o && r < doc.nodes[o].end);
    if (!inside) return false;
  }
  return true;
}

std::string FirstHeading(const Document& doc, const std::vector<NodeStats>& stats) {
  for (uint32_t i = 1; i < doc.nodes.size();) {
    const Node& node = doc.nodes[i];
    if (stats[i].removed) {
      i = node.end;
      continue;
    }
    if (node.tag == Tag::kH1) {
      std::string text;
      for (uint32_t t = i + 1; t < node.end; ++t) {
        if (doc.nodes[t].tag == Tag::kText) text.append(doc.TextOf(doc.nodes[t]));
      }
      return CollapseWhitespace(text);
    }
    ++i;
  }
  return {};
}

// The page's title heads the content in some templates and sits above it in
// others: the content starts after it in all of them. (The title is the
// MainContent's own field, and the fingerprints weigh it apart.)
void DropLeadingTitle(MainContent* content) {
  std::vector<TextBlock>& blocks = content->blocks;
  if (!blocks.empty() && blocks.front().kind == TextBlock::Kind::kHeading &&
      blocks.front().text == content->title) {
    blocks.erase(blocks.begin());
  }
}

}  // namespace

struct Extractor::Impl {
  explicit Impl(ExtractionOptions o) : options(o), builder(o.max_depth) {}

  // Also sets *article: whether the pass's content reads as an article.
  std::vector<TextBlock> RunPass(const Pass& pass, std::vector<uint32_t>* chosen, bool* article) {
    RemovalPolicy removal;
    removal.link_density_max = options.link_density_max;
    removal.strip_by_class = pass.strip_by_class;
    removal.keep_noscript = pass.keep_noscript;
    ComputeStats(doc, removal, &stats);
    ScoringOptions scoring;
    scoring.min_paragraph_chars = options.min_paragraph_chars;
    scoring.weight_classes = pass.weight_classes;
    scoring.include_siblings = options.include_siblings;
    std::vector<uint32_t> roots = SelectByScore(doc, stats, scoring, &scores);
    if (roots.empty()) roots.push_back(SelectFallback(doc, stats));
    *chosen = roots;
    EmitOptions emit;
    emit.clean_conditionally = pass.clean_conditionally;
    emit.weight_classes = pass.weight_classes;
    emit.max_depth = options.max_depth;
    std::vector<TextBlock> blocks;
    EmitBlocks(doc, stats, scores, roots, emit, &blocks);
    *article = LooksLikeArticle(doc, stats, roots, blocks, !pass.strip_by_class);
    return blocks;
  }

  void ReleaseIfHuge() {
    if (doc.nodes.capacity() > kRetainedNodes) std::vector<Node>().swap(doc.nodes);
    if (doc.text.capacity() > kRetainedTextBytes) std::string().swap(doc.text);
    if (stats.capacity() > kRetainedNodes) std::vector<NodeStats>().swap(stats);
    if (scores.value.capacity() > kRetainedNodes) scores = Scores();
  }

  ExtractionOptions options;
  TreeBuilder builder;
  Document doc;
  std::vector<NodeStats> stats;
  Scores scores;
};

Extractor::Extractor(ExtractionOptions options) : impl_(std::make_unique<Impl>(options)) {}
Extractor::~Extractor() = default;
Extractor::Extractor(Extractor&&) noexcept = default;
Extractor& Extractor::operator=(Extractor&&) noexcept = default;

MainContent Extractor::Extract(std::string_view utf8_html) {
  Impl& m = *impl_;
  m.builder.Build(utf8_html, &m.doc);
  MarkPhraseBoxes(&m.doc);
  MainContent result;
  size_t best_chars = 0;
  std::vector<uint32_t> strict_roots, roots;
  for (size_t p = 0; p < std::size(kPasses); ++p) {
    bool article = false;
    std::vector<TextBlock> blocks = m.RunPass(kPasses[p], &roots, &article);
    if (p == 0) {
      result.title = ChooseTitle(m.doc, FirstHeading(m.doc, m.stats));
      strict_roots = roots;
    }
    const size_t chars = TotalChars(blocks);
    // A laxer pass may only grow what the strict pass found (a short
    // article stays short), unless the strict pass found nothing.
    const bool grows = best_chars < 300 || Covers(m.doc, roots, strict_roots);
    if (p == 0 || (chars > best_chars && grows)) {
      result.blocks = std::move(blocks);
      result.article_found = article;
      best_chars = chars;
    }
    if (best_chars >= kEnoughChars) break;
  }
  DropLeadingTitle(&result);
  m.ReleaseIfHuge();
  return result;
}

std::string MainContent::Text() const {
  size_t size = 0;
  for (const TextBlock& b : blocks) size += b.text.size() + 2;
  std::string out;
  out.reserve(size);
  for (const TextBlock& b : blocks) {
    if (!out.empty()) out += "\n\n";
    out += b.text;
  }
  return out;
}

}  // namespace pagesieve::content
