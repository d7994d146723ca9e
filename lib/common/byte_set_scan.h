#pragma once

// Finding the first byte of a set in 16 bytes at once. Hot scanners (the URL
// canonicalizer's escapes, the HTML text's whitespace and commas) run over
// long stretches of bytes that need nothing and stop at a few that do; a
// byte at a time, the table lookup and branch per byte is most of their cost.
//
// With SSSE3 (part of the x86-64-v2 baseline the build targets) each byte is
// classified with two 16-entry tables, one per nibble, as simdjson does:
// byte b is in the set exactly when lo[b & 15] & hi[b >> 4] != 0. Each bit
// stands for one group of high nibbles that share the same set of low
// nibbles; the tables are derived at compile time, and a set that needs more
// than eight groups fails to compile where it is used.

#include <array>
#include <cstddef>
#include <cstdint>

#ifdef __SSSE3__
#include <tmmintrin.h>
#endif

namespace pagesieve {

// Member b is true when byte b is in the set.
using ByteSet = std::array<bool, 256>;

struct NibbleTables {
  std::array<uint8_t, 16> lo{};
  std::array<uint8_t, 16> hi{};
  int groups = 0;  // 9: the set does not fit in eight groups
};

constexpr NibbleTables MakeNibbleTables(const ByteSet& set) {
  NibbleTables tables;
  std::array<uint16_t, 16> lo_sets{};  // per high nibble: its low nibbles in the set
  for (int b = 0; b < 256; ++b) {
    if (set[b]) lo_sets[b >> 4] |= static_cast<uint16_t>(1u << (b & 15));
  }
  std::array<uint16_t, 8> group_sets{};
  for (int h = 0; h < 16; ++h) {
    if (lo_sets[h] == 0) continue;
    int group = 0;
    while (group < tables.groups && group_sets[group] != lo_sets[h]) ++group;
    if (group == tables.groups) {
      if (group == 8) return NibbleTables{{}, {}, 9};
      group_sets[tables.groups++] = lo_sets[h];
    }
    tables.hi[h] |= static_cast<uint8_t>(1u << group);
    for (int l = 0; l < 16; ++l) {
      if (lo_sets[h] & (1u << l)) tables.lo[l] |= static_cast<uint8_t>(1u << group);
    }
  }
  return tables;
}

#ifdef __SSSE3__
// The set's members among 16 bytes: bit i for byte i. Inlined into a loop,
// the table loads are hoisted out of it.
inline uint32_t SetMembers16(__m128i bytes, const NibbleTables& tables) {
  const __m128i low_nibble = _mm_set1_epi8(0x0f);
  const __m128i lo_table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.lo.data()));
  const __m128i hi_table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(tables.hi.data()));
  const __m128i lo = _mm_shuffle_epi8(lo_table, _mm_and_si128(bytes, low_nibble));
  const __m128i hi =
      _mm_shuffle_epi8(hi_table, _mm_and_si128(_mm_srli_epi16(bytes, 4), low_nibble));
  const __m128i outside = _mm_cmpeq_epi8(_mm_and_si128(lo, hi), _mm_setzero_si128());
  return ~static_cast<uint32_t>(_mm_movemask_epi8(outside)) & 0xffffu;
}
#endif

// The end of the run of bytes outside `kSet` that starts at p: the first
// member at or after p, or `end`.
template <const ByteSet& kSet>
const unsigned char* SkipOutside(const unsigned char* p, const unsigned char* end) {
#ifdef __SSSE3__
  static constexpr NibbleTables kTables = MakeNibbleTables(kSet);
  static_assert(kTables.groups <= 8, "the set needs more than 8 nibble groups");
  while (end - p >= 16) {
    const uint32_t members =
        SetMembers16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), kTables);
    if (members != 0) return p + __builtin_ctz(members);
    p += 16;
  }
#endif
  while (p < end && !kSet[*p]) ++p;
  return p;
}

}  // namespace pagesieve
