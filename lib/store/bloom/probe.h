#pragma once

#include <cstdint>

namespace pagesieve::store::bloom {

// How one 64-bit key hash becomes a block and a set of bits inside it.
//
// The shard's key hashes are already uniform, so they are not hashed again:
// the high 32 bits pick the block (multiply-shift onto [0, blocks), which
// needs no division and no power-of-two size), and the low 32 bits, which
// the block choice does not use, seed the probes. Each probe multiplies the
// seed by an odd constant and takes the top 9 bits as a bit position within
// the 512-bit block: cheap, and independent enough that the measured rate
// matches the formula for independent probes (bloom_fpr_test).
//
// The probe pattern depends only on the key, so a lookup builds it once as a
// 512-bit mask and tests it against the key's block in every generation.

inline constexpr uint32_t kProbeMultiplier = 0x9E3779B1u;  // 2^32 / golden ratio, odd

struct ProbeMask {
  uint64_t words[8];
};

inline uint64_t BlockIndex(uint64_t key_hash, uint64_t blocks) {
  return ((key_hash >> 32) * blocks) >> 32;
}

inline ProbeMask MakeProbeMask(uint64_t key_hash, int num_probes) {
  ProbeMask mask{};
  auto h = static_cast<uint32_t>(key_hash);
  for (int i = 0; i < num_probes; ++i) {
    h *= kProbeMultiplier;
    const uint32_t bit = h >> 23;
    mask.words[bit >> 6] |= uint64_t{1} << (bit & 63);
  }
  return mask;
}

// True when every bit of the mask is set in the 8-word block.
inline bool BlockContains(const uint64_t* block, const ProbeMask& mask) {
  uint64_t missing = 0;
  for (int w = 0; w < 8; ++w) missing |= mask.words[w] & ~block[w];
  return missing == 0;
}

// Sets the mask's bits; returns how many were not set before.
inline int BlockInsert(uint64_t* block, const ProbeMask& mask) {
  int added = 0;
  for (int w = 0; w < 8; ++w) {
    added += __builtin_popcountll(mask.words[w] & ~block[w]);
    block[w] |= mask.words[w];
  }
  return added;
}

}  // namespace pagesieve::store::bloom
