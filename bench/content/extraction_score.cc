// Scores lib/content's main-text extraction on the two annotated datasets
// of ../shared/data/extraction (see its README):
//
//   trafilatura-eval        snippets that must / must not appear in the main
//                           text → precision, recall, F1 over all snippets
//   readability-testpages   the text of Readability's expected article →
//                           token-level precision, recall, F1 (micro over
//                           all tokens, and the mean of per-page F1)
//
// Both also count the pages the extractor says hold no article
// (MainContent::article_found): each has one, so every such page is one
// whose near-duplicates the fingerprints will miss.
//
//   extraction_score [--set trafilatura|readability] [--worst N] [--page NAME]
//                    [--misses 1]
//
// --worst N lists the N pages that lose most; --page NAME prints what was
// extracted from one page. Whitespace runs (NBSP too) compare as one space.
// The expected article text is read with libxml2, not with lib/content's
// own parser, so the oracle does not share the code under test.

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "content/content.h"
#include "dataset.h"

namespace pagesieve::content::bench {
namespace {

struct Args {
  std::string set;  // empty: both
  int worst = 0;
  std::string page;
  bool misses = false;  // print every missed / wrongly kept snippet
};

std::string CollapseSpaces(std::string_view s) {
  std::string out;
  bool space = true;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = s[i];
    bool is_space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0) {
      is_space = true;
      ++i;
    }
    if (is_space) {
      if (!space) out.push_back(' ');
      space = true;
    } else {
      out.push_back(static_cast<char>(c));
      space = false;
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

MainContent ExtractPage(Extractor* extractor, const std::string& html) {
  return extractor->Extract(DecodeToUtf8(html, "text/html"));
}

struct Counts {
  double tp = 0, fp = 0, fn = 0;
  double P() const { return tp + fp == 0 ? 0 : tp / (tp + fp); }
  double R() const { return tp + fn == 0 ? 0 : tp / (tp + fn); }
  double F1() const { return P() + R() == 0 ? 0 : 2 * P() * R() / (P() + R()); }
};

struct PageResult {
  std::string name;
  Counts counts;
  double loss;
};

void PrintWorst(std::vector<PageResult>* results, int worst) {
  std::sort(results->begin(), results->end(),
            [](const PageResult& a, const PageResult& b) { return a.loss > b.loss; });
  for (int i = 0; i < worst && i < static_cast<int>(results->size()); ++i) {
    const PageResult& r = (*results)[i];
    std::printf("  %-50s tp %3.0f fp %3.0f fn %3.0f  P %.2f R %.2f\n", r.name.c_str(), r.counts.tp,
                r.counts.fp, r.counts.fn, r.counts.P(), r.counts.R());
  }
}

// Every annotated page has an article: one the extractor says it did not
// find is a page whose near-duplicates the fingerprints will not catch.
int CountNoArticle(const MainContent& content, const std::string& name, const Args& args) {
  if (content.article_found) return 0;
  if (args.misses) std::printf("NOARTICLE %s\n", name.c_str());
  return 1;
}

void ScoreTrafilatura(const std::vector<Page>& pages, const Args& args) {
  Extractor extractor{ExtractionOptions{}};
  Counts total;
  int no_article = 0;
  std::vector<PageResult> results;
  for (const Page& page : pages) {
    const MainContent content = ExtractPage(&extractor, page.html);
    const std::string text = CollapseSpaces(content.Text());
    no_article += CountNoArticle(content, page.name, args);
    Counts c;
    for (const std::string& s : page.with) {
      const bool found = text.find(CollapseSpaces(s)) != std::string::npos;
      (found ? c.tp : c.fn) += 1;
      if (!found && args.misses) std::printf("MISS %s\t%s\n", page.name.c_str(), s.c_str());
    }
    for (const std::string& s : page.without) {
      if (text.find(CollapseSpaces(s)) == std::string::npos) continue;
      c.fp += 1;
      if (args.misses) std::printf("KEPT %s\t%s\n", page.name.c_str(), s.c_str());
    }
    total.tp += c.tp;
    total.fp += c.fp;
    total.fn += c.fn;
    results.push_back({page.name, c, c.fp + c.fn});
  }
  std::printf(
      "trafilatura-eval      %4zu pages  %5.0f snippets  P %.3f  R %.3f  F1 %.3f  no article %d\n",
      pages.size(), total.tp + total.fn, total.P(), total.R(), total.F1(), no_article);
  PrintWorst(&results, args.worst);
}

// Lowercased ASCII alphanumerics and any non-ASCII bytes make words.
std::unordered_map<std::string, int> Tokens(std::string_view text) {
  std::unordered_map<std::string, int> bag;
  std::string word;
  for (char ch : text) {
    const unsigned char c = ch;
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c >= 0x80) {
      word.push_back(ch);
    } else if (c >= 'A' && c <= 'Z') {
      word.push_back(static_cast<char>(c + 32));
    } else if (!word.empty()) {
      ++bag[word];
      word.clear();
    }
  }
  if (!word.empty()) ++bag[word];
  return bag;
}

std::string LibxmlText(const std::string& html) {
  htmlDocPtr doc = htmlReadMemory(
      html.data(), static_cast<int>(html.size()), nullptr, "UTF-8",
      HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
  std::string text;
  if (doc != nullptr) {
    xmlChar* content = xmlNodeGetContent(xmlDocGetRootElement(doc));
    if (content != nullptr) text = reinterpret_cast<const char*>(content);
    xmlFree(content);
    xmlFreeDoc(doc);
  }
  return text;
}

void ScoreReadability(const std::vector<Page>& pages, const Args& args) {
  Extractor extractor{ExtractionOptions{}};
  Counts micro;
  double f1_sum = 0;
  int title_matches = 0;
  int no_article = 0;
  std::vector<PageResult> results;
  for (const Page& page : pages) {
    const MainContent content = ExtractPage(&extractor, page.html);
    no_article += CountNoArticle(content, page.name, args);
    const auto got = Tokens(content.Text());
    const auto want = Tokens(LibxmlText(page.expected_html));
    Counts c;
    for (const auto& [word, n] : got) {
      const auto it = want.find(word);
      const int common = it == want.end() ? 0 : std::min(n, it->second);
      c.tp += common;
      c.fp += n - common;
    }
    for (const auto& [word, n] : want) {
      const auto it = got.find(word);
      c.fn += n - (it == got.end() ? 0 : std::min(n, it->second));
    }
    micro.tp += c.tp;
    micro.fp += c.fp;
    micro.fn += c.fn;
    f1_sum += (c.tp + c.fn == 0 && c.fp == 0) ? 1.0 : c.F1();
    title_matches += CollapseSpaces(content.title) == CollapseSpaces(page.expected_title);
    results.push_back({page.name, c, 1.0 - c.F1()});
  }
  std::printf(
      "readability-testpages %4zu pages  tokens  P %.3f  R %.3f  F1 %.3f (micro)  mean F1 %.3f"
      "  title exact %d/%zu  no article %d\n",
      pages.size(), micro.P(), micro.R(), micro.F1(), f1_sum / pages.size(), title_matches,
      pages.size(), no_article);
  PrintWorst(&results, args.worst);
}

void PrintPage(const std::vector<Page>& pages, const std::string& name) {
  Extractor extractor{ExtractionOptions{}};
  for (const Page& page : pages) {
    if (page.name != name) continue;
    const MainContent content = ExtractPage(&extractor, page.html);
    std::printf("title: %s\n", content.title.c_str());
    for (const TextBlock& b : content.blocks) {
      std::printf("%s %s\n", b.kind == TextBlock::Kind::kHeading ? "##" : "  ", b.text.c_str());
    }
    for (const std::string& s : page.with) std::printf("WITH    %s\n", s.c_str());
    for (const std::string& s : page.without) std::printf("WITHOUT %s\n", s.c_str());
    if (!page.expected_html.empty()) {
      std::printf("EXPECTED:\n%s\n", CollapseSpaces(LibxmlText(page.expected_html)).c_str());
    }
  }
}

Args ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--set") args.set = argv[i + 1];
    if (flag == "--worst") args.worst = std::atoi(argv[i + 1]);
    if (flag == "--page") args.page = argv[i + 1];
    if (flag == "--misses") args.misses = std::string(argv[i + 1]) == "1";
  }
  return args;
}

}  // namespace
}  // namespace pagesieve::content::bench

int main(int argc, char** argv) {
  using namespace pagesieve::content::bench;
  const Args args = ParseArgs(argc, argv);
  xmlInitParser();
  if (args.set.empty() || args.set == "trafilatura") {
    auto pages = LoadTrafilaturaEval(DefaultDataDir() + "/trafilatura-eval");
    if (!pages.ok()) {
      std::fprintf(stderr, "%s\n", pages.status().ToString().c_str());
      return 1;
    }
    if (!args.page.empty())
      PrintPage(*pages, args.page);
    else
      ScoreTrafilatura(*pages, args);
  }
  if (args.set.empty() || args.set == "readability") {
    auto pages = LoadReadabilityPages(DefaultDataDir() + "/readability-testpages");
    if (!pages.ok()) {
      std::fprintf(stderr, "%s\n", pages.status().ToString().c_str());
      return 1;
    }
    if (!args.page.empty())
      PrintPage(*pages, args.page);
    else
      ScoreReadability(*pages, args);
  }
  return 0;
}
