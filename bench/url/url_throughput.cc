// Canonicalization throughput on one thread:
//
//   url_throughput [--passes N] [--variants V] [--idn-only | --ascii-only]
//
// Builds the corpus of url_corpus.h (the data sets' ~1,200 URLs plus V
// seeded variants of each, default 100), then canonicalizes all of it N times
// (default 7) and prints URLs/s and ns/URL for each pass and their median,
// measured in thread CPU time (the machine is shared: CPU time is steadier
// than wall time). The target is 1 M URLs/s.

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "bench_util/cpu_time.h"
#include "url/canonicalizer.h"
#include "url_corpus.h"

namespace pagesieve::url::bench {
namespace {

using pagesieve::bench::ThreadCpuSeconds;

bool NeedsIdn(const std::string& url) {
  for (char c : url) {
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  }
  return url.find("xn--") != std::string::npos;
}

int Main(int argc, char** argv) {
  int passes = 7;
  int variants = 100;
  int filter = 0;  // 1: only IDN URLs, 2: only ASCII URLs
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--passes") == 0 && i + 1 < argc) {
      passes = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--variants") == 0 && i + 1 < argc) {
      variants = std::max(0, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--idn-only") == 0) {
      filter = 1;
    } else if (std::strcmp(argv[i], "--ascii-only") == 0) {
      filter = 2;
    } else {
      std::fprintf(stderr, "usage: %s [--passes N] [--variants V] [--idn-only | --ascii-only]\n",
                   argv[0]);
      return 2;
    }
  }
  CorpusStats stats;
  std::vector<std::string> corpus = BuildCorpus(variants, 20240601, &stats);
  if (corpus.empty()) {
    std::fprintf(stderr, "cannot read the data sets under ../shared/data\n");
    return 1;
  }
  if (filter != 0) {
    std::erase_if(corpus, [filter](const std::string& u) { return NeedsIdn(u) != (filter == 1); });
  }
  size_t bytes = 0;
  for (const std::string& url : corpus) bytes += url.size();

  const Canonicalizer canonicalizer({});
  size_t errors = 0;
  size_t out_bytes = 0;
  for (const std::string& url : corpus) {  // warm-up, and the error count
    StatusOr<CanonicalUrl> c = canonicalizer.Canonicalize(url);
    if (c.ok())
      out_bytes += c->spec.size();
    else
      ++errors;
  }
  std::printf(
      "corpus: %zu URLs (%zu from the data sets, %zu with IDN hosts), %.1f bytes/URL in, "
      "%.1f out, %zu errors\n",
      corpus.size(), stats.base, stats.idn, double(bytes) / corpus.size(),
      double(out_bytes) / (corpus.size() - errors), errors);
  std::vector<double> rates;
  for (int pass = 0; pass < passes; ++pass) {
    size_t sink = 0;
    const double start = ThreadCpuSeconds();
    for (const std::string& url : corpus) {
      StatusOr<CanonicalUrl> c = canonicalizer.Canonicalize(url);
      sink += c.ok() ? c->spec.size() : 1;
    }
    const double seconds = ThreadCpuSeconds() - start;
    rates.push_back(double(corpus.size()) / seconds);
    std::printf("pass %d: %.2f M URLs/s, %.0f ns/URL, %.0f MB/s (checksum %zu)\n", pass + 1,
                rates.back() / 1e6, 1e9 / rates.back(), double(bytes) / seconds / 1e6, sink);
  }
  std::sort(rates.begin(), rates.end());
  const double median = rates[rates.size() / 2];
  std::printf("median: %.2f M URLs/s, %.0f ns/URL\n", median / 1e6, 1e9 / median);
  return 0;
}

}  // namespace
}  // namespace pagesieve::url::bench

int main(int argc, char** argv) { return pagesieve::url::bench::Main(argc, argv); }
