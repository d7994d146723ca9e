#include "page_pairs.h"

#include <algorithm>
#include <random>

#include "../content/dataset.h"
#include "content/content.h"
#include "fingerprint/text_simhash.h"

namespace pagesieve::fingerprint::bench {
namespace {

Blocks NormalizedBlocks(std::string_view html, content::Extractor& extractor) {
  Blocks out;
  content::MainContent main = extractor.Extract(content::DecodeToUtf8(html, "text/html"));
  for (const content::TextBlock& block : main.blocks) {
    std::string n = content::NormalizeForHashing(block.text);
    if (!n.empty()) out.push_back(std::move(n));
  }
  return out;
}

size_t WordCount(const Blocks& blocks) {
  size_t n = 0;
  for (const std::string& b : blocks)
    n += static_cast<size_t>(std::count(b.begin(), b.end(), ' ')) + 1;
  return n;
}

// Replaces `count` random space-separated words with made-up ones that no
// page contains.
Blocks ReplaceWords(Blocks blocks, size_t count, std::mt19937_64& rng) {
  std::vector<std::pair<size_t, size_t>> starts;  // (block, offset) of every word
  for (size_t i = 0; i < blocks.size(); ++i) {
    starts.emplace_back(i, 0);
    for (size_t at = blocks[i].find(' '); at != std::string::npos;
         at = blocks[i].find(' ', at + 1)) {
      starts.emplace_back(i, at + 1);
    }
  }
  std::shuffle(starts.begin(), starts.end(), rng);
  starts.resize(std::min(count, starts.size()));
  // Right to left within a block, so earlier offsets stay valid.
  std::sort(starts.rbegin(), starts.rend());
  for (const auto& [block, offset] : starts) {
    std::string& text = blocks[block];
    size_t end = std::min(text.find(' ', offset), text.size());
    text.replace(offset, end - offset, "zq" + std::to_string(rng() % 1'000'000'000));
  }
  return blocks;
}

// The blocks holding the first `fraction` of the page's words.
Blocks Head(const Blocks& blocks, double fraction) {
  const size_t want = static_cast<size_t>(fraction * static_cast<double>(WordCount(blocks)));
  Blocks out;
  for (size_t words = 0; words < want && out.size() < blocks.size();) {
    out.push_back(blocks[out.size()]);
    words += WordCount({out.back()});
  }
  return out;
}

void AddPair(std::vector<PagePair>* pairs, const std::string& kind, size_t a, const Shingles& sa,
             const Blocks& b) {
  Shingles sb = ShinglesOf(b);
  if (sb.empty()) return;
  pairs->push_back({kind, a, sb, ExactJaccard(sa, sb)});
}

}  // namespace

std::vector<Blocks> LoadPages(const std::string& data_dir) {
  content::Extractor extractor{content::ExtractionOptions{}};
  std::vector<Blocks> pages;
  auto a = content::bench::LoadTrafilaturaEval(data_dir + "/trafilatura-eval");
  auto b = content::bench::LoadReadabilityPages(data_dir + "/readability-testpages");
  for (const auto* set : {&a, &b}) {
    if (!set->ok()) continue;
    for (const content::bench::Page& page : **set) {
      Blocks blocks = NormalizedBlocks(page.html, extractor);
      if (!ShinglesOf(blocks).empty()) pages.push_back(std::move(blocks));
    }
  }
  return pages;
}

Shingles ShinglesOf(const Blocks& blocks) {
  static TextSimHasher hasher{SimHashOptions{}};
  std::vector<std::string_view> views(blocks.begin(), blocks.end());
  hasher.Compute(views, {});
  return Shingles(hasher.shingles().begin(), hasher.shingles().end());
}

double ExactJaccard(const Shingles& a, const Shingles& b) {
  Shingles da = a, db = b;
  da.erase(std::unique(da.begin(), da.end()), da.end());
  db.erase(std::unique(db.begin(), db.end()), db.end());
  Shingles both;
  std::set_intersection(da.begin(), da.end(), db.begin(), db.end(), std::back_inserter(both));
  const double uni = static_cast<double>(da.size() + db.size() - both.size());
  return uni == 0 ? 0 : static_cast<double>(both.size()) / uni;
}

std::vector<PagePair> MakePairs(const std::vector<Blocks>& pages,
                                const std::vector<Shingles>& shingles, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<PagePair> pairs;
  for (size_t i = 0; i < pages.size(); ++i) {
    const Blocks& page = pages[i];
    const Blocks& other = pages[(i + 1 + rng() % (pages.size() - 1)) % pages.size()];
    const size_t words = WordCount(page);
    for (size_t n : {1, 2, 3}) {
      AddPair(&pairs, std::to_string(n) + (n == 1 ? " word" : " words"), i, shingles[i],
              ReplaceWords(page, n, rng));
    }
    for (int percent : {2, 5, 10, 20}) {
      const size_t n = words * static_cast<size_t>(percent) / 100 + 1;
      AddPair(&pairs, std::to_string(percent) + "% of words", i, shingles[i],
              ReplaceWords(page, n, rng));
    }
    Blocks third = Head(page, 1.0 / 3);
    Blocks rest = other;
    rest.erase(rest.begin(), rest.begin() + static_cast<long>(Head(other, 1.0 / 3).size()));
    third.insert(third.end(), rest.begin(), rest.end());
    AddPair(&pairs, "third shared", i, shingles[i], third);
    Blocks with_paragraph = other;
    const auto longest = std::max_element(
        page.begin(), page.end(),
        [](const std::string& x, const std::string& y) { return x.size() < y.size(); });
    with_paragraph.insert(with_paragraph.begin() + static_cast<long>(other.size() / 2), *longest);
    AddPair(&pairs, "paragraph shared", i, shingles[i], with_paragraph);
    AddPair(&pairs, "unrelated", i, shingles[i], other);
  }
  return pairs;
}

}  // namespace pagesieve::fingerprint::bench
