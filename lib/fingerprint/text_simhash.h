#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "fingerprint/shingles.h"

namespace pagesieve::fingerprint {

struct SimHashOptions {
  // Words per shingle for scripts written with spaces (near.shingle_size).
  int shingle_size = 3;
  // Texts with fewer tokens get no SimHash (near.min_tokens).
  uint32_t min_tokens = 50;
  // Weight factor of title and heading shingles (near.heading_weight).
  double heading_weight = 2.0;
};

// From normalized text to its token count and SimHash.
//
// The main text comes as blocks (paragraphs, headings), each shingled on its
// own: no shingle spans two blocks, so a block added or removed (a teaser, a
// timestamp line) changes only its own shingles, not the ones around it.
// Each emphasized text (the title, each heading) is shingled the same way;
// a shingle found in one of them is weighted by heading_weight, and one
// found only there (a title the text does not repeat) still counts.
//
// Keeps its buffers between calls, so it allocates nothing once they have
// grown. Not thread-safe: one per thread.
class TextSimHasher {
 public:
  explicit TextSimHasher(SimHashOptions options) : options_(options) {}

  struct Result {
    uint32_t tokens = 0;  // tokens in all blocks
    std::optional<uint64_t> simhash;
  };

  Result Compute(std::span<const std::string_view> blocks,
                 std::span<const std::string_view> emphasized);

  // The shingles of the blocks (not of the emphasized texts) of the last
  // Compute, sorted, one per occurrence; empty when it gave no SimHash. The
  // MinHash sketch is made from them, so a page is tokenized and shingled
  // once. Valid until the next Compute.
  std::span<const uint64_t> shingles() const { return shingles_; }

 private:
  SimHashOptions options_;
  TokenHashes body_tokens_;
  std::vector<size_t> block_ends_;  // where each block's tokens end in body_tokens_
  TokenHashes scratch_tokens_;
  std::vector<uint64_t> shingles_;
  std::vector<uint64_t> emphasized_shingles_;
};

}  // namespace pagesieve::fingerprint
