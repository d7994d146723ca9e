#include "fingerprint/text_simhash.h"

#include <algorithm>
#include <limits>

#include "fingerprint/simhash.h"

namespace pagesieve::fingerprint {

TextSimHasher::Result TextSimHasher::Compute(std::string_view body,
                                             std::span<const std::string_view> emphasized) {
  body_tokens_.Clear();
  AppendTokenHashes(body, &body_tokens_);
  Result result;
  result.tokens = static_cast<uint32_t>(
      std::min<size_t>(body_tokens_.hashes.size(), std::numeric_limits<uint32_t>::max()));
  if (result.tokens == 0 || result.tokens < options_.min_tokens) return result;

  const int size = ShingleSizeFor(body_tokens_, options_.shingle_size);
  shingles_.clear();
  AppendShingles(body_tokens_.hashes, size, &shingles_);
  emphasized_shingles_.clear();
  for (std::string_view text : emphasized) {
    scratch_tokens_.Clear();
    AppendTokenHashes(text, &scratch_tokens_);
    AppendShingles(scratch_tokens_.hashes, size, &emphasized_shingles_);
  }
  result.simhash = WeightedSimHash(&shingles_, &emphasized_shingles_, options_.heading_weight);
  return result;
}

}  // namespace pagesieve::fingerprint
