// Why a piece of text was or was not extracted: a debugging aid for tuning
// the heuristics (not a benchmark).
//
//   extraction_explain <page.html[.gz]> <text>
//   extraction_explain --classify-misses
//
// Prints the chosen subtrees, then for each text node containing <text> its
// ancestors with their statistics, removal and score.

#include <algorithm>
#include <cstdio>
#include <string>

#include "content/analysis.h"
#include "content/content.h"
#include "content/scoring.h"
#include "content/tree_builder.h"
#include "dataset.h"

namespace pagesieve::content::bench {
namespace {

void PrintNode(const Document& doc, const std::vector<NodeStats>& stats, const Scores& scores,
               uint32_t i) {
  const Node& n = doc.nodes[i];
  const NodeStats& st = stats[i];
  std::printf(
      "  #%-6u %-10s flags=%03x hints=%02x w=%+3d chars=%-6u link=%-6u inline=%-5u "
      "%s score=%s\n",
      i, std::string(TagName(n.tag)).c_str(), n.flags, n.class_hints, n.class_weight, st.chars,
      st.link_chars, st.inline_chars, st.removed ? "REMOVED" : "       ",
      scores.Has(i) ? std::to_string(scores.value[i]).c_str() : "-");
}

}  // namespace
}  // namespace pagesieve::content::bench

namespace pagesieve::content::bench {
namespace {

// Where each missed "with" snippet of trafilatura-eval went, by the strict
// pass: absent from the parsed text, removed (and by which ancestor), left
// outside the chosen subtrees, or inside them (dropped by cleaning).
int ClassifyMisses() {
  auto pages = LoadTrafilaturaEval(DefaultDataDir() + "/trafilatura-eval");
  if (!pages.ok()) return 1;
  TreeBuilder builder(ExtractionOptions{}.max_depth);
  Extractor extractor;
  Document doc;
  std::vector<NodeStats> stats;
  Scores scores;
  for (const Page& page : *pages) {
    const std::string html = DecodeToUtf8(page.html, "text/html");
    const std::string text = extractor.Extract(html).Text();
    builder.Build(html, &doc);
    ComputeStats(doc, RemovalPolicy{}, &stats);
    const std::vector<uint32_t> roots = SelectByScore(doc, stats, ScoringOptions{}, &scores);
    for (const std::string& snippet : page.with) {
      if (text.find(snippet) != std::string::npos) continue;
      const std::string probe = snippet.substr(0, std::min<size_t>(snippet.size(), 16));
      uint32_t hit = 0;
      for (uint32_t i = 0; i < doc.nodes.size() && hit == 0; ++i) {
        if (doc.nodes[i].tag == Tag::kText &&
            doc.TextOf(doc.nodes[i]).find(probe) != std::string::npos)
          hit = i;
      }
      std::string where = "absent";
      if (hit != 0) {
        where = "outside";
        for (uint32_t r : roots) {
          if (hit >= r && hit < doc.nodes[r].end) where = "inside";
        }
        for (uint32_t a = doc.nodes[hit].parent; a != 0; a = doc.nodes[a].parent) {
          if (stats[a].removed) {
            const Node& n = doc.nodes[a];
            where = "removed:" + std::string(TagName(n.tag)) + ":f" + std::to_string(n.flags) +
                    ":h" + std::to_string(n.class_hints) +
                    (stats[a].link_chars * 10 > stats[a].chars * 8 ? ":links" : "");
          }
        }
      }
      std::printf("%s\t%s\t%s\n", where.c_str(), page.name.c_str(), snippet.c_str());
    }
  }
  return 0;
}

}  // namespace
}  // namespace pagesieve::content::bench

int main(int argc, char** argv) {
  using namespace pagesieve::content;
  using namespace pagesieve::content::bench;
  if (argc == 2 && std::string(argv[1]) == "--classify-misses") return ClassifyMisses();
  if (argc < 3) {
    std::fprintf(stderr, "usage: extraction_explain <page.html[.gz]> <text>\n");
    return 2;
  }
  const std::string path = argv[1];
  auto raw = ReadGzipFile(path);  // zlib reads plain files too
  if (!raw.ok()) {
    std::fprintf(stderr, "%s\n", raw.status().ToString().c_str());
    return 1;
  }
  const std::string html = DecodeToUtf8(*raw, "text/html");
  TreeBuilder builder(ExtractionOptions{}.max_depth);
  Document doc;
  builder.Build(html, &doc);
  std::vector<NodeStats> stats;
  ComputeStats(doc, RemovalPolicy{}, &stats);
  Scores scores;
  const std::vector<uint32_t> roots = SelectByScore(doc, stats, ScoringOptions{}, &scores);
  std::printf("chosen:");
  for (uint32_t r : roots) std::printf(" #%u", r);
  std::printf("\n");
  for (uint32_t r : roots) PrintNode(doc, stats, scores, r);
  std::vector<uint32_t> best;
  for (uint32_t i = 0; i < doc.nodes.size(); ++i) {
    if (scores.Has(i)) best.push_back(i);
  }
  std::sort(best.begin(), best.end(),
            [&](uint32_t a, uint32_t b) { return scores.value[a] > scores.value[b]; });
  std::printf("best scores:\n");
  for (size_t k = 0; k < best.size() && k < 8; ++k) PrintNode(doc, stats, scores, best[k]);
  const std::string needle = argv[2];
  for (uint32_t i = 0; i < doc.nodes.size(); ++i) {
    if (doc.nodes[i].tag != Tag::kText) continue;
    if (doc.TextOf(doc.nodes[i]).find(needle) == std::string_view::npos) continue;
    std::printf("text #%u: %.80s\n", i, std::string(doc.TextOf(doc.nodes[i])).c_str());
    for (uint32_t a = doc.nodes[i].parent;; a = doc.nodes[a].parent) {
      PrintNode(doc, stats, scores, a);
      if (a == 0) break;
    }
  }
  return 0;
}
