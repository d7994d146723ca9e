// Extraction on a fixed sample of the annotated real pages in
// ../shared/data/extraction: a floor that catches regressions, far below
// the figures bench/content/extraction_score reports on the full sets.

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "content/content.h"
#include "content/utf8.h"

namespace pagesieve::content {
namespace {

const std::string kDataDir = PAGESIEVE_SOURCE_DIR "/../shared/data/extraction";

std::string ReadGzip(const std::string& path) {
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
  std::string out;
  if (!file) return out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(file.get(), buf, sizeof(buf))) > 0) out.append(buf, n);
  return out;
}

std::string Collapse(std::string_view s) {
  std::string out;
  bool space = true;
  for (char c : s) {
    const bool is_space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (is_space && !space) out.push_back(' ');
    if (!is_space) out.push_back(c);
    space = is_space;
  }
  return out;
}

struct Snippets {
  std::string file;
  std::vector<std::string> with, without;
};

std::vector<Snippets> SampleOfTrafilaturaEval(size_t count) {
  std::ifstream in(kDataDir + "/trafilatura-eval/evaldata.json");
  std::stringstream text;
  text << in.rdbuf();
  const auto index = nlohmann::json::parse(text.str(), nullptr, false);
  std::vector<Snippets> all;
  if (!index.is_object()) return all;
  for (const auto& [url, entry] : index.items()) {
    all.push_back({entry.value("file", ""), entry.value("with", std::vector<std::string>{}),
                   entry.value("without", std::vector<std::string>{})});
  }
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.file < b.file; });
  std::shuffle(all.begin(), all.end(), std::mt19937(2024));
  all.resize(std::min(count, all.size()));
  return all;
}

std::string PagePath(const std::string& file) {
  const std::string eval = kDataDir + "/trafilatura-eval/eval/" + file + ".gz";
  return std::ifstream(eval).good() ? eval : kDataDir + "/trafilatura-eval/cache/" + file + ".gz";
}

TEST(RealPagesTest, SnippetPrecisionAndRecallOnASampleOfTrafilaturaEval) {
  const auto sample = SampleOfTrafilaturaEval(40);
  ASSERT_EQ(sample.size(), 40u) << "test data missing under " << kDataDir;
  Extractor extractor;
  double tp = 0, fp = 0, fn = 0;
  for (const Snippets& page : sample) {
    const std::string html = ReadGzip(PagePath(page.file));
    ASSERT_FALSE(html.empty()) << page.file;
    const std::string text = Collapse(extractor.Extract(DecodeToUtf8(html, "text/html")).Text());
    for (const auto& s : page.with) (text.find(Collapse(s)) != std::string::npos ? tp : fn) += 1;
    for (const auto& s : page.without) fp += text.find(Collapse(s)) != std::string::npos;
  }
  const double precision = tp / (tp + fp), recall = tp / (tp + fn);
  EXPECT_GT(precision, 0.8);
  EXPECT_GT(recall, 0.8);
}

TEST(RealPagesTest, EveryReadabilityPageGivesValidTextAndATitle) {
  const char* names[] = {"001",        "aclu",     "ars-1",     "bbc-1",     "cnet",
                         "guardian-1", "medium-1", "nytimes-1", "wikipedia", "wordpress"};
  Extractor extractor;
  for (const char* name : names) {
    const std::string html =
        ReadGzip(kDataDir + "/readability-testpages/pages/" + name + "/source.html.gz");
    ASSERT_FALSE(html.empty()) << name;
    const MainContent content = extractor.Extract(DecodeToUtf8(html, "text/html"));
    const std::string text = content.Text();
    EXPECT_GT(text.size(), 500u) << name;
    EXPECT_FALSE(content.title.empty()) << name;
    EXPECT_EQ(ValidUtf8PrefixLength(text), text.size()) << name;
  }
}

TEST(RealPagesTest, MutatedRealPagesNeverBreakExtraction) {
  // Cut, duplicate and splice stretches of a real page, and sprinkle '<',
  // quotes and invalid bytes: each variant must give valid UTF-8.
  const std::string html =
      ReadGzip(kDataDir + "/readability-testpages/pages/guardian-1/source.html.gz");
  ASSERT_FALSE(html.empty());
  std::mt19937 rng(99);
  Extractor extractor;
  for (int round = 0; round < 40; ++round) {
    std::string page = html;
    for (int edit = 0; edit < 20; ++edit) {
      const size_t at = rng() % page.size();
      const size_t len = std::min<size_t>(rng() % 2000, page.size() - at);
      switch (rng() % 4) {
        case 0:
          page.erase(at, len);
          break;
        case 1:
          page.insert(at, page.substr(rng() % page.size(), len));
          break;
        case 2:
          page.insert(at, std::string(1 + rng() % 50, "<\"'>&\xFF"[rng() % 6]));
          break;
        default:
          page.resize(std::max<size_t>(at, 1));
          break;
      }
      if (page.empty()) page = "<";
    }
    const MainContent content = extractor.Extract(DecodeToUtf8(page, "text/html"));
    const std::string text = content.Text();
    ASSERT_EQ(ValidUtf8PrefixLength(text), text.size()) << "round " << round;
    ASSERT_EQ(ValidUtf8PrefixLength(content.title), content.title.size()) << "round " << round;
  }
}

}  // namespace
}  // namespace pagesieve::content
