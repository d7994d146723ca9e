// How fast the HTML parsers of well-kept Debian libraries go on the real
// pages: the measurement that decides whether lib/content may use one of
// them or needs its own tokenizer (docs/content-extraction.md).
//
//   parser_baseline [--passes N]
//
// Prints MB/s and pages/s of HTML (thread CPU time), median of N passes, for
// libxml2's htmlReadMemory (recovering, no network) and gumbo_parse, each
// parse followed by one walk collecting the text (the least any extractor
// does) and freeing the tree.

#include <gumbo.h>
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "bench_util/cpu_time.h"
#include "dataset.h"

namespace pagesieve::content::bench {
namespace {

size_t XmlTextBytes(xmlNode* root) {
  // Iterative walk: these trees can be deep.
  size_t total = 0;
  xmlNode* node = root;
  while (node != nullptr) {
    if (node->type == XML_TEXT_NODE && node->content) total += strlen((char*)node->content);
    if (node->children && node->type == XML_ELEMENT_NODE) {
      node = node->children;
      continue;
    }
    while (node && node->next == nullptr && node != root) node = node->parent;
    if (node == nullptr || node == root) break;
    node = node->next;
  }
  return total;
}

size_t ParseLibxml2(const std::string& html) {
  htmlDocPtr doc = htmlReadMemory(html.data(), static_cast<int>(html.size()), nullptr, "UTF-8",
                                  HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                      HTML_PARSE_NONET | HTML_PARSE_COMPACT);
  size_t bytes = doc ? XmlTextBytes(xmlDocGetRootElement(doc)) : 0;
  xmlFreeDoc(doc);
  return bytes;
}

size_t GumboTextBytes(const GumboNode* root) {
  size_t total = 0;
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (n->type == GUMBO_NODE_TEXT) total += strlen(n->v.text.text);
    if (n->type != GUMBO_NODE_ELEMENT) continue;
    const GumboVector& kids = n->v.element.children;
    for (unsigned i = 0; i < kids.length; ++i) stack.push_back((const GumboNode*)kids.data[i]);
  }
  return total;
}

size_t ParseGumbo(const std::string& html) {
  GumboOutput* out = gumbo_parse_with_options(&kGumboDefaultOptions, html.data(), html.size());
  size_t bytes = GumboTextBytes(out->root);
  gumbo_destroy_output(&kGumboDefaultOptions, out);
  return bytes;
}

using pagesieve::bench::ThreadCpuSeconds;

void Measure(const char* name, const std::vector<Page>& pages, int passes,
             const std::function<size_t(const std::string&)>& parse) {
  size_t total = 0;
  for (const Page& p : pages) total += p.html.size();
  // CPU time of this thread: other processes share the 2 cores.
  std::vector<double> seconds;
  size_t sink = 0;
  for (int pass = 0; pass < passes; ++pass) {
    double start = ThreadCpuSeconds();
    for (const Page& p : pages) sink += parse(p.html);
    seconds.push_back(ThreadCpuSeconds() - start);
  }
  std::sort(seconds.begin(), seconds.end());
  double s = seconds[seconds.size() / 2];
  std::printf(
      "%-10s %8.1f MB/s %8.0f pages/s  (%zu pages, %.1f MB, median of %d, CPU time, text %zu)\n",
      name, total / s / 1e6, pages.size() / s, pages.size(), total / 1e6, passes, sink);
}

}  // namespace
}  // namespace pagesieve::content::bench

int main(int argc, char** argv) {
  using namespace pagesieve::content::bench;
  int passes = 3;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--passes") passes = std::max(1, std::atoi(argv[i + 1]));
  }
  auto a = LoadTrafilaturaEval(DefaultDataDir() + "/trafilatura-eval");
  auto b = LoadReadabilityPages(DefaultDataDir() + "/readability-testpages");
  if (!a.ok() || !b.ok()) {
    std::fprintf(stderr, "cannot load pages: %s %s\n", a.status().ToString().c_str(),
                 b.status().ToString().c_str());
    return 1;
  }
  std::vector<Page> pages = std::move(*a);
  for (Page& p : *b) pages.push_back(std::move(p));
  xmlInitParser();
  Measure("libxml2", pages, passes, ParseLibxml2);
  Measure("gumbo", pages, passes, ParseGumbo);
  return 0;
}
