#include "fingerprint/text_simhash.h"

#include <algorithm>
#include <limits>

#include "fingerprint/simhash.h"

namespace pagesieve::fingerprint {

TextSimHasher::Result TextSimHasher::Compute(std::span<const std::string_view> blocks,
                                             std::span<const std::string_view> emphasized) {
  body_tokens_.Clear();
  block_ends_.clear();
  shingles_.clear();  // shingles() must not show the previous page's
  for (std::string_view block : blocks) {
    AppendTokenHashes(block, &body_tokens_);
    block_ends_.push_back(body_tokens_.hashes.size());
  }
  Result result;
  result.tokens = static_cast<uint32_t>(
      std::min<size_t>(body_tokens_.hashes.size(), std::numeric_limits<uint32_t>::max()));
  if (result.tokens == 0 || result.tokens < options_.min_tokens) return result;

  // One shingle size for the whole page, decided on all of its tokens.
  const int size = ShingleSizeFor(body_tokens_, options_.shingle_size);
  const std::span<const uint64_t> tokens(body_tokens_.hashes);
  shingles_.reserve(tokens.size() + block_ends_.size());  // at most one per token or block
  size_t begin = 0;
  for (size_t end : block_ends_) {
    AppendShingles(tokens.subspan(begin, end - begin), size, &shingles_);
    begin = end;
  }
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
