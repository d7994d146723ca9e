#include "fingerprint/shingles.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>

#include "fingerprint/tokenizer.h"

namespace pagesieve::fingerprint {
namespace {

// Little-endian whatever the host, so that a shingle hashes the same on
// every machine; on little-endian hosts that is a plain copy.
void StoreLittleEndian(uint64_t v, unsigned char* out) {
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out, &v, sizeof(v));
  } else {
    for (int i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * i));
  }
}

uint64_t HashWindow(const uint64_t* tokens, size_t count) {
  unsigned char bytes[8 * kMaxShingleSize];
  for (size_t i = 0; i < count; ++i) StoreLittleEndian(tokens[i], bytes + 8 * i);
  return XXH3_64bits_withSeed(bytes, 8 * count, kFeatureSeed);
}

}  // namespace

uint64_t HashToken(std::string_view token) {
  return XXH3_64bits_withSeed(token.data(), token.size(), kFeatureSeed);
}

void AppendTokenHashes(std::string_view text, TokenHashes* out) {
  Tokenizer tokenizer(text);
  Token token;
  while (tokenizer.Next(&token)) {
    out->hashes.push_back(HashToken(token.text));
    out->unspaced += token.unspaced ? 1 : 0;
  }
}

int ShingleSizeFor(const TokenHashes& tokens, int word_shingle_size) {
  return 2 * tokens.unspaced > tokens.hashes.size() ? kUnspacedShingleSize : word_shingle_size;
}

void AppendShingles(std::span<const uint64_t> token_hashes, int size, std::vector<uint64_t>* out) {
  assert(size >= 1 && size <= kMaxShingleSize);
  const size_t n = token_hashes.size();
  if (n == 0) return;
  const size_t window = std::min(n, static_cast<size_t>(size));
  for (size_t i = 0; i + window <= n; ++i) out->push_back(HashWindow(&token_hashes[i], window));
}

}  // namespace pagesieve::fingerprint
