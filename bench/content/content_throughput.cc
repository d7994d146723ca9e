// Throughput of lib/content on the real pages, one thread:
//
//   content_throughput [--passes N] [--stage all|decode|parse|extract] [--every K]
//
// --every K keeps every K-th page: a smaller, still representative set for
// valgrind --tool=callgrind, whose instruction counts are the steady figure
// for comparing variants on a busy machine.
//
// For each stage prints MB/s of HTML and pages/s (thread CPU time, median of
// N passes; the machine is shared, so CPU time is steadier than wall time):
//   decode    DecodeToUtf8
//   parse     decode + tokenize + build the tree
//   extract   decode + Extractor::Extract (parse, boilerplate, scoring, title)
//   all       extract + NormalizeForHashing of every block: the content part
//             of the fingerprint pipeline, the figure the 200 MB/s target is for

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "bench_util/cpu_time.h"
#include "content/content.h"
#include "content/dom.h"
#include "content/tree_builder.h"
#include "dataset.h"

namespace pagesieve::content::bench {
namespace {

using pagesieve::bench::ThreadCpuSeconds;

void Measure(const char* name, const std::vector<Page>& pages, int passes,
             const std::function<size_t(const std::string&)>& run) {
  size_t total = 0;
  for (const Page& p : pages) total += p.html.size();
  std::vector<double> seconds;
  size_t sink = 0;
  for (int pass = 0; pass < passes; ++pass) {
    const double start = ThreadCpuSeconds();
    for (const Page& p : pages) sink += run(p.html);
    seconds.push_back(ThreadCpuSeconds() - start);
  }
  std::sort(seconds.begin(), seconds.end());
  const double s = seconds[seconds.size() / 2];
  std::printf("%-8s %7.1f MB/s %7.0f pages/s  (%zu pages, %.1f MB, median of %d; %zu)\n", name,
              total / s / 1e6, pages.size() / s, pages.size(), total / 1e6, passes, sink);
}

}  // namespace
}  // namespace pagesieve::content::bench

int main(int argc, char** argv) {
  using namespace pagesieve::content;
  using namespace pagesieve::content::bench;
  int passes = 5;
  std::string stage = "";
  size_t every = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--passes") passes = std::max(1, std::atoi(argv[i + 1]));
    if (std::string(argv[i]) == "--stage") stage = argv[i + 1];
    if (std::string(argv[i]) == "--every") every = std::max(1, std::atoi(argv[i + 1]));
  }
  auto a = LoadTrafilaturaEval(DefaultDataDir() + "/trafilatura-eval");
  auto b = LoadReadabilityPages(DefaultDataDir() + "/readability-testpages");
  if (!a.ok() || !b.ok()) {
    std::fprintf(stderr, "cannot load pages\n");
    return 1;
  }
  std::vector<Page> all = std::move(*a);
  for (Page& p : *b) all.push_back(std::move(p));
  std::vector<Page> pages;
  for (size_t i = 0; i < all.size(); i += every) pages.push_back(std::move(all[i]));

  Extractor extractor{ExtractionOptions{}};
  TreeBuilder builder(ExtractionOptions{}.max_depth);
  Document doc;
  const NormalizeOptions normalize;
  if (stage.empty() || stage == "decode") {
    Measure("decode", pages, passes,
            [&](const std::string& html) { return DecodeToUtf8(html, "text/html").size(); });
  }
  if (stage.empty() || stage == "parse") {
    Measure("parse", pages, passes, [&](const std::string& html) {
      builder.Build(DecodeToUtf8(html, "text/html"), &doc);
      return doc.nodes.size();
    });
  }
  if (stage.empty() || stage == "extract") {
    Measure("extract", pages, passes, [&](const std::string& html) {
      return extractor.Extract(DecodeToUtf8(html, "text/html")).blocks.size();
    });
  }
  if (stage.empty() || stage == "all") {
    Measure("all", pages, passes, [&](const std::string& html) {
      const MainContent content = extractor.Extract(DecodeToUtf8(html, "text/html"));
      size_t n = NormalizeForHashing(content.title, normalize).size();
      for (const TextBlock& block : content.blocks)
        n += NormalizeForHashing(block.text, normalize).size();
      return n;
    });
  }
  return 0;
}
