#include "fingerprint/title_features.h"

#include <algorithm>

#include "common/split_mix64.h"
#include "fingerprint/shingles.h"

namespace pagesieve::fingerprint {
namespace {

// Keeps title features apart from text shingles of the same token hash.
constexpr uint64_t kTitleSalt = 0x7469746c65000000ull;  // "title"

}  // namespace

size_t CountDistinctSorted(std::span<const uint64_t> sorted) {
  if (sorted.empty()) return 0;
  size_t n = 1;
  for (size_t i = 1; i < sorted.size(); ++i) n += sorted[i] != sorted[i - 1];
  return n;
}

void AppendTitleFeatures(std::string_view normalized_title, size_t text_features,
                         std::vector<uint64_t>* features) {
  TokenHashes tokens;
  AppendTokenHashes(normalized_title, &tokens);
  std::sort(tokens.hashes.begin(), tokens.hashes.end());
  tokens.hashes.erase(std::unique(tokens.hashes.begin(), tokens.hashes.end()),
                      tokens.hashes.end());
  if (tokens.hashes.empty()) return;
  // Half as many title features as text shingles, rounded up.
  const size_t copies = std::max<size_t>(
      1, (text_features + 2 * tokens.hashes.size() - 1) / (2 * tokens.hashes.size()));
  for (uint64_t token : tokens.hashes) {
    for (size_t i = 0; i < copies; ++i) {
      features->push_back(SplitMix64(SplitMix64(token ^ kTitleSalt) + i));
    }
  }
}

}  // namespace pagesieve::fingerprint
