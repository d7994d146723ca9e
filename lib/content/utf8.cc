#include "content/utf8.h"

#include <cstring>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace pagesieve::content {
namespace {

constexpr uint64_t kHighBits = 0x8080808080808080ULL;

// The length of the valid sequence starting at s[0] (a non-ASCII byte), or
// 0 when it is invalid; *bad_len gets the length of the maximal invalid
// subpart to replace in that case (at least 1).
size_t SequenceLength(const unsigned char* s, size_t n, size_t* bad_len) {
  const unsigned char c = s[0];
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    *bad_len = 1;
    return 0;
  }
  for (size_t i = 1; i < len; ++i) {
    const unsigned char b = i < n ? s[i] : 0;
    const bool ok = i == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (i >= n || !ok) {
      *bad_len = i;
      return 0;
    }
  }
  return len;
}

}  // namespace

size_t AsciiPrefixLength(std::string_view text) {
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = 0;
#ifdef __SSE2__
  // 32 bytes per step: the high bits of all bytes in one mask.
  for (; i + 32 <= n; i += 32) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 16));
    if (_mm_movemask_epi8(_mm_or_si128(a, b)) != 0) break;
  }
#endif
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    if (word & kHighBits) break;
  }
  while (i < n && static_cast<unsigned char>(p[i]) < 0x80) ++i;
  return i;
}

size_t ValidUtf8PrefixLength(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    if (s[i] < 0x80) {
      i += AsciiPrefixLength(text.substr(i));
      continue;
    }
    size_t bad_len;
    const size_t len = SequenceLength(s + i, n - i, &bad_len);
    if (len == 0) return i;
    i += len;
  }
  return n;
}

void AppendRepairedUtf8(std::string_view text, std::string* out) {
  while (!text.empty()) {
    const size_t valid = ValidUtf8PrefixLength(text);
    out->append(text.data(), valid);
    text.remove_prefix(valid);
    if (text.empty()) break;
    size_t bad_len;
    SequenceLength(reinterpret_cast<const unsigned char*>(text.data()), text.size(), &bad_len);
    out->append(kReplacementChar);
    text.remove_prefix(bad_len);
  }
}

void AppendCodePoint(uint32_t cp, std::string* out) {
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) cp = 0xFFFD;
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace pagesieve::content
