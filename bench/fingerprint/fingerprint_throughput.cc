// Throughput of the whole fingerprint pipeline on the real pages, one thread:
//
//   fingerprint_throughput [--passes N] [--stage all|digests|content|simhash|minhash]
//
// For each stage prints MB/s of HTML and pages/s (thread CPU time, median of
// N passes; the machine is shared, so CPU time is steadier than wall time).
// Every figure is per byte of raw HTML, so the stages add up to about `all`:
//   digests  payload SHA-1 over the body, SHA-256 of the canonical URL and of
//            the normalized text (precomputed)
//   content  decode + extract + normalize every block and the title (lib/content)
//   simhash  tokenize + shingle + weight + SimHash of the normalized text
//            (precomputed), with the title and headings emphasized
//   minhash  the MinHash sketch from the page's sorted shingles (precomputed)
//   all      Fingerprinter::Fingerprint: URL, decode, extract, normalize,
//            digests, SimHash, MinHash; the figure the speed target is for

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "../content/dataset.h"
#include "bench_util/cpu_time.h"
#include "content/content.h"
#include "fingerprint/fingerprinter.h"

namespace pagesieve::fingerprint::bench {
namespace {

using pagesieve::bench::ThreadCpuSeconds;

// The normalized main text and the normalized title and headings, as the
// fingerprinter computes them.
struct NormalizedText {
  std::string text;  // the blocks joined by ' '
  std::vector<std::string> blocks;
  std::vector<std::string> emphasized;  // headings and title
};

NormalizedText Normalize(std::string_view html, content::Extractor& extractor) {
  NormalizedText out;
  content::MainContent main = extractor.Extract(content::DecodeToUtf8(html, "text/html"));
  for (const content::TextBlock& block : main.blocks) {
    std::string n = content::NormalizeForHashing(block.text);
    if (n.empty()) continue;
    if (!out.text.empty()) out.text += ' ';
    out.text += n;
    if (block.kind == content::TextBlock::Kind::kHeading) out.emphasized.push_back(n);
    out.blocks.push_back(std::move(n));
  }
  std::string title = content::NormalizeForHashing(main.title);
  if (!title.empty()) out.emphasized.push_back(title);
  return out;
}

// A page with its normalized text and shingles precomputed, so the digest,
// SimHash and MinHash stages can be timed on their own.
struct Prepared {
  std::string html;
  NormalizedText normalized;
  std::vector<uint64_t> shingles;  // sorted, as TextSimHasher leaves them
};

std::vector<uint64_t> ShinglesOf(const NormalizedText& text) {
  static TextSimHasher hasher{SimHashOptions{}};
  std::vector<std::string_view> blocks(text.blocks.begin(), text.blocks.end());
  hasher.Compute(blocks, {});
  return {hasher.shingles().begin(), hasher.shingles().end()};
}

void Measure(const char* name, const std::vector<Prepared>& pages, int passes,
             const std::function<uint64_t(const Prepared&)>& run) {
  size_t total = 0;
  for (const Prepared& p : pages) total += p.html.size();
  std::vector<double> seconds;
  uint64_t sink = 0;
  for (int pass = 0; pass < passes; ++pass) {
    const double start = ThreadCpuSeconds();
    for (const Prepared& p : pages) sink += run(p);
    seconds.push_back(ThreadCpuSeconds() - start);
  }
  std::sort(seconds.begin(), seconds.end());
  const double s = seconds[seconds.size() / 2];
  std::printf(
      "%-8s %7.1f MB/s %7.0f pages/s %7.1f us/page  (%zu pages, %.1f MB, median of %d; %llu)\n",
      name, static_cast<double>(total) / s / 1e6, static_cast<double>(pages.size()) / s,
      s / static_cast<double>(pages.size()) * 1e6, pages.size(), static_cast<double>(total) / 1e6,
      passes, static_cast<unsigned long long>(sink % 10));
}

constexpr std::string_view kUrl = "https://www.example.com/news/2024/05/some-article-title.html";

void RunStages(const std::vector<Prepared>& pages, int passes, const std::string& stage) {
  auto wants = [&](const char* s) { return stage.empty() || stage == s; };
  if (wants("digests")) {
    Measure("digests", pages, passes, [](const Prepared& p) {
      return PayloadDigest(p.html).size() + Sha256Digest128(kUrl).Low64() +
             Sha256Digest128(p.normalized.text).Low64();
    });
  }
  if (wants("content")) {
    content::Extractor extractor{content::ExtractionOptions{}};
    Measure("content", pages, passes,
            [&](const Prepared& p) { return Normalize(p.html, extractor).text.size(); });
  }
  if (wants("simhash")) {
    TextSimHasher hasher{SimHashOptions{}};
    Measure("simhash", pages, passes, [&](const Prepared& p) {
      std::vector<std::string_view> blocks(p.normalized.blocks.begin(), p.normalized.blocks.end());
      std::vector<std::string_view> emphasized(p.normalized.emphasized.begin(),
                                               p.normalized.emphasized.end());
      return hasher.Compute(blocks, emphasized).simhash.value_or(0);
    });
  }
  if (wants("minhash")) {
    MinHasher hasher{MinHashOptions{}};
    Measure("minhash", pages, passes, [&](const Prepared& p) {
      std::optional<MinHashSketch> sketch = hasher.Sketch(p.shingles);
      return sketch ? sketch->values()[0] : 0;
    });
  }
  if (wants("all")) {
    Fingerprinter fingerprinter{FingerprintOptions{}};
    Measure("all", pages, passes, [&](const Prepared& p) {
      return fingerprinter.Fingerprint(PageInput{kUrl, "text/html", p.html, {}})->tokens;
    });
  }
}

}  // namespace
}  // namespace pagesieve::fingerprint::bench

int main(int argc, char** argv) {
  using namespace pagesieve;
  using namespace pagesieve::fingerprint::bench;
  int passes = 5;
  std::string stage;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--passes") passes = std::max(1, std::atoi(argv[i + 1]));
    if (std::string(argv[i]) == "--stage") stage = argv[i + 1];
  }
  const std::string dir = content::bench::DefaultDataDir();
  auto a = content::bench::LoadTrafilaturaEval(dir + "/trafilatura-eval");
  auto b = content::bench::LoadReadabilityPages(dir + "/readability-testpages");
  if (!a.ok() || !b.ok()) {
    std::fprintf(stderr, "cannot load the pages under %s\n", dir.c_str());
    return 1;
  }
  content::Extractor extractor{content::ExtractionOptions{}};
  std::vector<Prepared> pages;
  for (const auto* set : {&*a, &*b}) {
    for (const content::bench::Page& page : *set) {
      NormalizedText normalized = Normalize(page.html, extractor);
      std::vector<uint64_t> shingles = ShinglesOf(normalized);
      pages.push_back(Prepared{page.html, std::move(normalized), std::move(shingles)});
    }
  }
  RunStages(pages, passes, stage);
  return 0;
}
