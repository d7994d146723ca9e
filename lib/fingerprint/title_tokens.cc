#include "fingerprint/title_tokens.h"

#include <algorithm>

#include "fingerprint/minhash.h"
#include "fingerprint/shingles.h"

namespace pagesieve::fingerprint {

size_t CountDistinctSorted(std::span<const uint64_t> sorted) {
  if (sorted.empty()) return 0;
  size_t n = 1;
  for (size_t i = 1; i < sorted.size(); ++i) n += sorted[i] != sorted[i - 1];
  return n;
}

std::vector<uint32_t> TitleTokens(std::string_view normalized_title) {
  TokenHashes tokens;
  AppendTokenHashes(normalized_title, &tokens);
  if (tokens.hashes.size() > MinHashSketch::kMaxTitleTokens) {
    tokens.hashes.resize(MinHashSketch::kMaxTitleTokens);
  }
  std::vector<uint32_t> out;
  out.reserve(tokens.hashes.size());
  // 32 bits: two different words of two titles collide about once in four
  // billion comparisons, and the sketch stays small.
  for (uint64_t h : tokens.hashes) out.push_back(static_cast<uint32_t>(h));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool TitlesAgree(std::span<const uint32_t> a, std::span<const uint32_t> b) {
  if (a.empty() || b.empty()) return true;
  size_t shared = 0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) {
      ++shared, ++i, ++j;
    } else if (a[i] < b[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  const size_t shorter = std::min(a.size(), b.size());
  const size_t longer = std::max(a.size(), b.size());
  return 5 * shared >= 4 * shorter && 2 * shared > longer;
}

}  // namespace pagesieve::fingerprint
