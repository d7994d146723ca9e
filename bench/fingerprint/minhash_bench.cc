// Which MinHash variant, how many slots and how many bits per slot, measured
// on the real pages (docs/fingerprints.md, "MinHash"):
//
//   minhash_bench [--passes N] [--seed S]
//
// Sketchers: k independent hash functions (a SplitMix64 mix of the shingle
// with one seed per slot, or a multiply-add per slot), and one-permutation
// hashing with optimal densification (lib/fingerprint's MinHasher). b-bit
// variants keep the low b bits of each 32-bit slot and correct the estimate
// for chance agreement. Prints markdown tables:
//   1. time to sketch a page (thread CPU time, median of N passes), from the
//      page's sorted shingles as the fingerprinter has them;
//   2. the error of the Jaccard estimate against the exact Jaccard of the
//      shingle sets, over real pages and edited copies (page_pairs.h);
//   3. for the default sketch, the error per kind of edit.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "../content/dataset.h"
#include "bench_util/cpu_time.h"
#include "fingerprint/minhash.h"
#include "page_pairs.h"

namespace pagesieve::fingerprint::bench {
namespace {

using pagesieve::bench::ThreadCpuSeconds;

constexpr uint64_t Mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// 32-bit slot values, or none (too few distinct shingles).
using Sketch = std::vector<uint32_t>;
using Sketcher = std::function<Sketch(const Shingles&)>;

constexpr uint32_t kMinShingles = 32;  // the default near.minhash_min_shingles

// k independent hash functions: one hash per slot per distinct shingle.
// `multiply_add` uses a*x+b (one multiply; its high bits are the
// well-mixed ones) instead of a full mix.
Sketcher KHashes(int slots, bool multiply_add) {
  std::mt19937_64 rng(42);
  std::vector<uint64_t> a(static_cast<size_t>(slots)), b(a.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = rng() | 1, b[i] = rng();
  return [a, b, multiply_add, mins = std::vector<uint64_t>()](const Shingles& s) mutable {
    mins.assign(a.size(), ~uint64_t{0});
    uint32_t distinct = 0;
    for (size_t j = 0; j < s.size(); ++j) {
      if (j > 0 && s[j] == s[j - 1]) continue;
      ++distinct;
      for (size_t i = 0; i < a.size(); ++i) {
        const uint64_t h = multiply_add ? a[i] * s[j] + b[i] : Mix64(s[j] ^ b[i]);
        mins[i] = std::min(mins[i], h);
      }
    }
    Sketch out;
    if (distinct < kMinShingles) return out;
    for (uint64_t m : mins) out.push_back(static_cast<uint32_t>(multiply_add ? m >> 32 : m));
    return out;
  };
}

Sketcher OnePermutation(int slots) {
  auto hasher = std::make_shared<MinHasher>(MinHashOptions{slots, 32, kMinShingles});
  return [hasher](const Shingles& s) {
    std::optional<MinHashSketch> sketch = hasher->Sketch(s);
    return sketch ? Sketch(sketch->values().begin(), sketch->values().end()) : Sketch();
  };
}

struct Variant {
  std::string name;
  int slots = 0;
  std::function<Sketcher()> make;
};

std::vector<Variant> Variants() {
  std::vector<Variant> out;
  for (int k : {64, 128, 256}) {
    out.push_back({"k hashes (mix)", k, [k] { return KHashes(k, false); }});
    out.push_back({"k hashes (multiply-add)", k, [k] { return KHashes(k, true); }});
    out.push_back({"one permutation + densification", k, [k] { return OnePermutation(k); }});
  }
  return out;
}

// The b-bit estimate: agreement of the low `bits` bits, corrected for the
// chance 2^-bits that unrelated values agree (as EstimateJaccard does).
double Estimate(const Sketch& a, const Sketch& b, int bits) {
  const uint32_t mask = bits >= 32 ? ~uint32_t{0} : (uint32_t{1} << bits) - 1;
  int equal = 0;
  for (size_t i = 0; i < a.size(); ++i) equal += (a[i] & mask) == (b[i] & mask) ? 1 : 0;
  const double chance = std::ldexp(1.0, -bits);
  const double agree = static_cast<double>(equal) / static_cast<double>(a.size());
  return std::clamp((agree - chance) / (1 - chance), 0.0, 1.0);
}

size_t DistinctCount(Shingles s) {
  return static_cast<size_t>(std::unique(s.begin(), s.end()) - s.begin());
}

void PrintTiming(const std::vector<Shingles>& pages, int passes) {
  size_t distinct = 0;
  for (const Shingles& s : pages) distinct += DistinctCount(s);
  std::printf("\n| sketcher | slots | µs/page | ns/distinct shingle |\n|---|---|---|---|\n");
  for (const Variant& v : Variants()) {
    Sketcher sketch = v.make();
    std::vector<double> seconds;
    size_t sink = 0;
    for (int pass = 0; pass < passes; ++pass) {
      const double start = ThreadCpuSeconds();
      for (const Shingles& s : pages) sink += sketch(s).size();
      seconds.push_back(ThreadCpuSeconds() - start);
    }
    std::sort(seconds.begin(), seconds.end());
    const double s = seconds[seconds.size() / 2];
    std::printf("| %s | %d | %.2f | %.2f |\n", v.name.c_str(), v.slots,
                s / static_cast<double>(pages.size()) * 1e6,
                s / static_cast<double>(distinct) * 1e9);
    if (sink == 1) std::printf("(sink)\n");  // keeps the sketches alive
  }
}

// The sketches of every original page and of every pair's copy.
struct Sketched {
  std::vector<Sketch> originals;
  std::vector<Sketch> copies;
};

Sketched SketchAll(const Variant& v, const std::vector<Shingles>& pages,
                   const std::vector<PagePair>& pairs) {
  Sketcher sketch = v.make();
  Sketched out;
  for (const Shingles& s : pages) out.originals.push_back(sketch(s));
  for (const PagePair& p : pairs) out.copies.push_back(sketch(p.b));
  return out;
}

struct Errors {
  size_t pairs = 0, no_sketch = 0;
  double sum_sq = 0, sum_sq_high = 0, sum = 0, max_abs = 0;
  size_t high = 0;           // pairs with exact J >= 0.4, where thresholds sit
  size_t false_accepts = 0;  // estimate >= t although exact < t - 0.1
  size_t false_rejects = 0;  // estimate < t although exact >= t + 0.1
  size_t wrong_side = 0;     // on the other side of t than the exact J

  void Add(double exact, double estimate) {
    const double err = estimate - exact;
    ++pairs;
    sum += err;
    sum_sq += err * err;
    max_abs = std::max(max_abs, std::abs(err));
    if (exact >= 0.4) ++high, sum_sq_high += err * err;
    for (double t : kThresholds) {
      false_accepts += estimate >= t && exact < t - 0.1 ? 1 : 0;
      false_rejects += estimate < t && exact >= t + 0.1 ? 1 : 0;
      wrong_side += (estimate >= t) != (exact >= t) ? 1 : 0;
    }
  }
  double Rmse() const { return std::sqrt(sum_sq / static_cast<double>(pairs)); }
  double RmseHigh() const { return std::sqrt(sum_sq_high / static_cast<double>(high)); }

  static constexpr double kThresholds[] = {0.5, 0.6, 0.7, 0.8, 0.9};
};

Errors Evaluate(const Sketched& s, const std::vector<PagePair>& pairs, int bits,
                const std::function<bool(const PagePair&)>& keep) {
  Errors e;
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (!keep(pairs[i])) continue;
    const Sketch& a = s.originals[pairs[i].a];
    const Sketch& b = s.copies[i];
    if (a.empty() || b.empty()) {
      ++e.no_sketch;
      continue;
    }
    e.Add(pairs[i].jaccard, Estimate(a, b, bits));
  }
  return e;
}

void PrintErrors(const std::vector<Shingles>& pages, const std::vector<PagePair>& pairs) {
  std::printf(
      "\n| sketcher | slots | bits | bytes | RMSE | RMSE, J >= 0.4 | max error | accepted, J < "
      "t-0.1 "
      "| rejected, J >= t+0.1 | wrong side of t |\n|---|---|---|---|---|---|---|---|---|---|\n");
  const std::map<std::pair<std::string, int>, std::vector<int>> widths = {
      {{"k hashes (mix)", 128}, {32}},
      {{"k hashes (multiply-add)", 128}, {32}},
      {{"one permutation + densification", 64}, {32, 16}},
      {{"one permutation + densification", 128}, {32, 16, 8, 4, 2}},
      {{"one permutation + densification", 256}, {32, 16, 8, 4}}};
  for (const Variant& v : Variants()) {
    auto it = widths.find({v.name, v.slots});
    if (it == widths.end()) continue;
    const Sketched sketched = SketchAll(v, pages, pairs);
    for (int bits : it->second) {
      Errors e = Evaluate(sketched, pairs, bits, [](const PagePair&) { return true; });
      const double decisions = static_cast<double>(e.pairs * std::size(Errors::kThresholds));
      std::printf("| %s | %d | %d | %d | %.4f | %.4f | %.3f | %zu | %zu | %.2f %% |\n",
                  v.name.c_str(), v.slots, bits, 4 + v.slots * bits / 8, e.Rmse(), e.RmseHigh(),
                  e.max_abs, e.false_accepts, e.false_rejects,
                  100.0 * static_cast<double>(e.wrong_side) / decisions);
    }
  }
}

// Per kind of copy, for one sketch.
void PrintPerKind(const std::vector<Shingles>& pages, const std::vector<PagePair>& pairs, int slots,
                  int bits) {
  std::printf("\nPer kind of copy, one permutation + densification, %d slots of %d bits:\n", slots,
              bits);
  std::printf(
      "\n| copy | pairs | exact J: mean (min-max) | bias | RMSE | max error | wrong side of t "
      "|\n|---|---|---|---|---|---|---|\n");
  const Sketched sketched =
      SketchAll({"", slots, [slots] { return OnePermutation(slots); }}, pages, pairs);
  std::vector<std::string> kinds;
  for (const PagePair& p : pairs) {
    if (std::find(kinds.begin(), kinds.end(), p.kind) == kinds.end()) kinds.push_back(p.kind);
  }
  for (const std::string& kind : kinds) {
    double sum = 0, lo = 1, hi = 0;
    size_t n = 0;
    for (const PagePair& p : pairs) {
      if (p.kind != kind) continue;
      sum += p.jaccard, lo = std::min(lo, p.jaccard), hi = std::max(hi, p.jaccard), ++n;
    }
    Errors e = Evaluate(sketched, pairs, bits, [&](const PagePair& p) { return p.kind == kind; });
    std::printf("| %s | %zu | %.3f (%.3f-%.3f) | %+.4f | %.4f | %.3f | %zu |\n", kind.c_str(),
                e.pairs, sum / static_cast<double>(n), lo, hi, e.sum / static_cast<double>(e.pairs),
                e.Rmse(), e.max_abs, e.wrong_side);
  }
}

}  // namespace
}  // namespace pagesieve::fingerprint::bench

int main(int argc, char** argv) {
  using namespace pagesieve::fingerprint::bench;
  int passes = 5;
  uint64_t seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--passes") passes = std::max(1, std::atoi(argv[i + 1]));
    if (std::string(argv[i]) == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
  }
  const std::vector<Blocks> pages = LoadPages(pagesieve::content::bench::DefaultDataDir());
  if (pages.size() < 2) {
    std::fprintf(stderr, "cannot load the pages under %s\n",
                 pagesieve::content::bench::DefaultDataDir().c_str());
    return 1;
  }
  std::vector<Shingles> shingles;
  size_t total = 0;
  for (const Blocks& b : pages) {
    shingles.push_back(ShinglesOf(b));
    total += shingles.back().size();
  }
  const std::vector<PagePair> pairs = MakePairs(pages, shingles, seed);
  std::printf(
      "%zu pages with a SimHash, %.0f shingles per page on average; %zu pairs (seed %llu)\n",
      pages.size(), static_cast<double>(total) / static_cast<double>(pages.size()), pairs.size(),
      static_cast<unsigned long long>(seed));
  PrintTiming(shingles, passes);
  PrintErrors(shingles, pairs);
  const pagesieve::fingerprint::MinHashOptions defaults;
  PrintPerKind(shingles, pairs, defaults.slots, defaults.bits);
  return 0;
}
