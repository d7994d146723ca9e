#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pagesieve::fingerprint {

// The seed of every feature hash (XXH3-64). Fixed forever: stored SimHashes
// are only comparable when it is the same (changing it means a new
// kFingerprintVersion). The value is "pagesiev" in ASCII.
inline constexpr uint64_t kFeatureSeed = 0x7061676573696576ULL;

// Languages written without spaces are shingled in character bigrams.
inline constexpr int kUnspacedShingleSize = 2;

// The hash of one token's bytes.
uint64_t HashToken(std::string_view token);

// The tokens of a text, as hashes, in order.
struct TokenHashes {
  std::vector<uint64_t> hashes;
  size_t unspaced = 0;  // how many were characters of an unspaced script

  void Clear() {
    hashes.clear();
    unspaced = 0;
  }
};

// Tokenizes `text` (see Tokenizer) and appends its token hashes to `out`.
void AppendTokenHashes(std::string_view text, TokenHashes* out);

// The shingle size for a text: character bigrams when most of its tokens are
// unspaced-script characters (Chinese, Japanese, Thai...), else
// `word_shingle_size` words. Decided once per page, so one page is shingled
// one way even when it mixes scripts.
int ShingleSizeFor(const TokenHashes& tokens, int word_shingle_size);

// Appends the hash of every window of `size` consecutive tokens to `out`:
// XXH3-64 (seed kFeatureSeed) of the window's token hashes, each as 8
// little-endian bytes. A non-empty text shorter than `size` gives one
// shingle of all its tokens, so a two-word heading still has a feature.
// `size` is between 1 and kMaxShingleSize.
void AppendShingles(std::span<const uint64_t> token_hashes, int size, std::vector<uint64_t>* out);

inline constexpr int kMaxShingleSize = 8;

}  // namespace pagesieve::fingerprint
