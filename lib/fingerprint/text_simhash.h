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
// The body is tokenized and shingled as one stream. Each emphasized text
// (the title, each heading) is shingled on its own with the body's shingle
// size; a shingle found in one of them is weighted by heading_weight, and
// one found only there (a title the body does not repeat) still counts.
//
// Keeps its buffers between calls, so it allocates nothing once they have
// grown. Not thread-safe: one per thread.
class TextSimHasher {
 public:
  explicit TextSimHasher(SimHashOptions options) : options_(options) {}

  struct Result {
    uint32_t tokens = 0;  // tokens in the body
    std::optional<uint64_t> simhash;
  };

  Result Compute(std::string_view body, std::span<const std::string_view> emphasized);

 private:
  SimHashOptions options_;
  TokenHashes body_tokens_;
  TokenHashes scratch_tokens_;
  std::vector<uint64_t> shingles_;
  std::vector<uint64_t> emphasized_shingles_;
};

}  // namespace pagesieve::fingerprint
