#include "content/confidence.h"

#include "content/class_hints.h"

namespace pagesieve::content {
namespace {

struct Amounts {
  size_t prose = 0;  // bytes in paragraph blocks of kArticleProseBlockBytes and more
  size_t total = 0;  // bytes in all blocks
};

Amounts Measure(const std::vector<TextBlock>& blocks) {
  Amounts amounts;
  for (const TextBlock& block : blocks) {
    amounts.total += block.text.size();
    if (block.kind == TextBlock::Kind::kParagraph && block.text.size() >= kArticleProseBlockBytes) {
      amounts.prose += block.text.size();
    }
  }
  return amounts;
}

double LinkDensity(const std::vector<NodeStats>& stats, const std::vector<uint32_t>& roots) {
  uint64_t chars = 0, links = 0;
  for (uint32_t r : roots) {
    chars += stats[r].chars;
    links += stats[r].link_chars;
  }
  return chars == 0 ? 0.0 : double(links) / double(chars);
}

// Whether `i` or an ancestor is named like navigation, a sidebar, a footer
// (and nothing names it content).
bool InsideBoilerplateClass(const Document& doc, uint32_t i) {
  for (; i != 0 && i != doc.body; i = doc.nodes[i].parent) {
    const uint8_t hints = doc.nodes[i].class_hints;
    if ((hints & kHintBoilerplate) && !(hints & kHintProtect)) return true;
  }
  return false;
}

}  // namespace

bool LooksLikeArticle(const Document& doc, const std::vector<NodeStats>& stats,
                      const std::vector<uint32_t>& roots, const std::vector<TextBlock>& blocks,
                      bool relaxed) {
  const Amounts amounts = Measure(blocks);
  if (amounts.prose < kArticleProseBytes && amounts.total < kArticleTextBytes) return false;
  if (LinkDensity(stats, roots) > kArticleLinkDensityMax) return false;
  if (relaxed && amounts.prose < kArticleInBoilerplateProseBytes) {
    for (uint32_t r : roots) {
      if (InsideBoilerplateClass(doc, r)) return false;
    }
  }
  return true;
}

}  // namespace pagesieve::content
