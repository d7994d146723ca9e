#pragma once

#include <cstdint>

#include "store/fuse/binary_fuse.h"

namespace pagesieve::store::fuse {

// How a key reaches its 3 slots and its fingerprint, shared by the builder
// and the lookup. The key hashes are uniform, but a construction attempt
// that fails must retry with independent positions, so they are mixed with
// the attempt's seed (the murmur3 finalizer: every input bit reaches every
// output bit).

inline uint64_t MixKey(uint64_t key, uint64_t seed) {
  uint64_t h = key + seed;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  h ^= h >> 33;
  return h;
}

__extension__ using Uint128 = unsigned __int128;

struct FuseSlots {
  uint64_t at[3];
};

// The first slot anywhere in the first segment_count segments (by
// multiply-shift, no division), the second and third at the same offset
// one and two segments on, each moved within its segment by other hash bits
// (XOR with a value below the power-of-two length stays in the segment).
inline FuseSlots SlotsOf(uint64_t h, const FuseShape& s) {
  const uint64_t span = uint64_t{s.segment_count} * s.segment_length;
  const uint64_t mask = s.segment_length - 1;
  const auto first = static_cast<uint64_t>((Uint128{h} * span) >> 64);
  FuseSlots out;
  out.at[0] = first;
  out.at[1] = (first + s.segment_length) ^ ((h >> 18) & mask);
  out.at[2] = (first + 2 * uint64_t{s.segment_length}) ^ (h & mask);
  return out;
}

inline uint32_t FingerprintOf(uint64_t h, int bits) {
  return static_cast<uint32_t>((h ^ (h >> 32)) & ((uint64_t{1} << bits) - 1));
}

}  // namespace pagesieve::store::fuse
