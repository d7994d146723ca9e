#include "url/percent_encoding.h"

#include <array>

#ifdef __SSSE3__
#include <tmmintrin.h>
#endif

namespace pagesieve::url::internal {
namespace {

enum ByteClass : uint8_t {
  kCopy,     // copied as it is
  kEscape,   // written as %XX
  kPercent,  // the start of an escape, or a lone '%'
  kStop,     // a delimiter of the caller's: ends the piece
};
using ClassTable = std::array<ByteClass, 256>;

constexpr ClassTable MakeTable(std::string_view stops) {
  ClassTable table{};
  for (int c = 0; c < 256; ++c) table[c] = (c > 0x20 && c < 0x7f) ? kCopy : kEscape;
  for (char c : std::string_view("\"<>`{}|^")) table[static_cast<unsigned char>(c)] = kEscape;
  table['%'] = kPercent;
  for (char c : stops) table[static_cast<unsigned char>(c)] = kStop;
  return table;
}
constexpr ClassTable kPlain = MakeTable("");
constexpr ClassTable kPath = MakeTable("/\\;");
constexpr ClassTable kQuery = MakeTable("&=");

constexpr char kUpperHex[] = "0123456789ABCDEF";

void AppendEscape(unsigned char byte, std::string* out) {
  const char escape[3] = {'%', kUpperHex[byte >> 4], kUpperHex[byte & 0xf]};
  out->append(escape, 3);
}

#ifdef __SSSE3__
// Byte classification with two 16-entry tables, one per nibble, as simdjson
// does: byte b is not kCopy exactly when lo[b & 15] & hi[b >> 4] != 0. Each
// bit stands for one group of high nibbles that share the same set of
// "non-copy" low nibbles; the tables are derived from the class table at
// compile time, and a static_assert checks they fit in eight bits.
struct NibbleTables {
  std::array<uint8_t, 16> lo{};
  std::array<uint8_t, 16> hi{};
  int groups = 0;
};

constexpr NibbleTables MakeNibbleTables(const ClassTable& table) {
  NibbleTables tables;
  std::array<uint16_t, 16> lo_sets{};  // per high nibble: its non-copy low nibbles
  for (int b = 0; b < 256; ++b) {
    if (table[b] != kCopy) lo_sets[b >> 4] |= static_cast<uint16_t>(1u << (b & 15));
  }
  std::array<uint16_t, 8> group_sets{};
  for (int h = 0; h < 16; ++h) {
    if (lo_sets[h] == 0) continue;
    int group = 0;
    while (group < tables.groups && group_sets[group] != lo_sets[h]) ++group;
    if (group == tables.groups) {
      if (group == 8) return NibbleTables{{}, {}, 9};  // does not fit: caught below
      group_sets[tables.groups++] = lo_sets[h];
    }
    tables.hi[h] |= static_cast<uint8_t>(1u << group);
    for (int l = 0; l < 16; ++l) {
      if (lo_sets[h] & (1u << l)) tables.lo[l] |= static_cast<uint8_t>(1u << group);
    }
  }
  return tables;
}
#endif

// The end of the run of kCopy bytes starting at p: the hot loop of the whole
// canonicalizer. With SSSE3 (part of the x86-64-v2 baseline), 16 bytes are
// classified at once; see docs/url-canonicalization.md for the measurement.
template <const ClassTable& kTable>
const char* SkipCopies(const char* p, const char* end) {
#ifdef __SSSE3__
  static constexpr NibbleTables kNibbles = MakeNibbleTables(kTable);
  static_assert(kNibbles.groups <= 8, "the non-copy bytes need more than 8 nibble groups");
  const __m128i lo_table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kNibbles.lo.data()));
  const __m128i hi_table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kNibbles.hi.data()));
  const __m128i low_nibble = _mm_set1_epi8(0x0f);
  while (end - p >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i lo = _mm_shuffle_epi8(lo_table, _mm_and_si128(bytes, low_nibble));
    const __m128i hi =
        _mm_shuffle_epi8(hi_table, _mm_and_si128(_mm_srli_epi16(bytes, 4), low_nibble));
    const __m128i stop = _mm_and_si128(lo, hi);
    const int copies = _mm_movemask_epi8(_mm_cmpeq_epi8(stop, _mm_setzero_si128()));
    if (copies != 0xffff) return p + __builtin_ctz(~copies);
    p += 16;
  }
#endif
  while (p < end && kTable[static_cast<unsigned char>(*p)] == kCopy) ++p;
  return p;
}

// Appends the escape at p (p[0] == '%'); returns the position after it.
const char* AppendPercent(const char* p, const char* end, std::string* out) {
  const int hi = end - p >= 3 ? HexDigitValue(p[1]) : -1;
  const int lo = hi >= 0 ? HexDigitValue(p[2]) : -1;
  if (lo < 0) {
    out->append("%25", 3);
    return p + 1;
  }
  const auto decoded = static_cast<unsigned char>(hi * 16 + lo);
  if (IsUnreserved(decoded)) {
    out->push_back(static_cast<char>(decoded));
  } else {
    AppendEscape(decoded, out);
  }
  return p + 3;
}

template <const ClassTable& kTable>
size_t AppendUntilStop(std::string_view in, std::string* out) {
  const char* p = in.data();
  const char* const end = p + in.size();
  while (p < end) {
    const char* run = p;
    p = SkipCopies<kTable>(p, end);
    out->append(run, p - run);
    if (p == end) break;
    switch (kTable[static_cast<unsigned char>(*p)]) {
      case kStop:
        return p - in.data();
      case kPercent:
        p = AppendPercent(p, end, out);
        break;
      default:
        AppendEscape(static_cast<unsigned char>(*p), out);
        ++p;
        break;
    }
  }
  return in.size();
}

}  // namespace

void AppendNormalized(std::string_view in, std::string* out) { AppendUntilStop<kPlain>(in, out); }

size_t AppendNormalizedPathPiece(std::string_view in, std::string* out) {
  return AppendUntilStop<kPath>(in, out);
}

size_t AppendNormalizedQueryPiece(std::string_view in, std::string* out) {
  return AppendUntilStop<kQuery>(in, out);
}

}  // namespace pagesieve::url::internal
