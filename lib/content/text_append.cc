#include "content/text_append.h"

#include <array>
#include <bit>

#include "common/byte_set_scan.h"
#include "content/html_entities.h"

namespace pagesieve::content {
namespace {

enum ByteClass : uint8_t { kPlain, kSpace, kComma, kAmp, kNul, kLead };

constexpr std::array<uint8_t, 256> MakeClasses() {
  std::array<uint8_t, 256> c{};
  c[' '] = c['\t'] = c['\n'] = c['\r'] = c['\f'] = kSpace;
  c[','] = kComma;
  c['&'] = kAmp;
  c[0] = kNul;
  // Lead bytes of U+060C (D8 8C), U+3001 (E3 80 81), U+FF0C (EF BC 8C).
  c[0xD8] = c[0xE3] = c[0xEF] = kLead;
  return c;
}
constexpr std::array<uint8_t, 256> kClasses = MakeClasses();

bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The bytes of every class but `cls`: where a run of that class ends.
constexpr ByteSet EndsOfRunOf(ByteClass cls) {
  ByteSet ends{};
  for (int b = 0; b < 256; ++b) ends[b] = kClasses[b] != cls;
  return ends;
}
constexpr ByteSet kStops = EndsOfRunOf(kPlain);
constexpr ByteSet kNotSpaces = EndsOfRunOf(kSpace);

// The end of the run of plain bytes that starts at i; adds the run's UTF-8
// continuation bytes to `continuation`. Text runs are long and most of a
// page's text bytes pass here: 16 at a time where the CPU allows (the
// profile of `pagesieve dedup` had this function at 6-7 % a byte at a time).
size_t PlainRunEnd(const unsigned char* s, size_t i, size_t n, uint32_t* continuation) {
#ifdef __SSSE3__
  static constexpr NibbleTables kTables = MakeNibbleTables(kStops);
  static_assert(kTables.groups <= 8, "the stops need more than 8 nibble groups");
  // 0x80-0xBF are the bytes below -64 as signed.
  const __m128i first_lead = _mm_set1_epi8(static_cast<char>(0xC0));
  while (n - i >= 16) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const uint32_t stops = SetMembers16(bytes, kTables);
    const auto continuations =
        static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmplt_epi8(bytes, first_lead)));
    if (stops != 0) {
      const int run = std::countr_zero(stops);
      *continuation += std::popcount(continuations & ((1u << run) - 1));
      return i + run;
    }
    *continuation += std::popcount(continuations);
    i += 16;
  }
#endif
  while (i < n && !kStops[s[i]]) *continuation += IsContinuation(s[i++]);
  return i;
}

uint32_t CountChars(std::string_view s) {
  uint32_t n = 0;
  for (unsigned char c : s) n += !IsContinuation(c);
  return n;
}

bool IsWideComma(std::string_view s) {
  return s.starts_with("\xD8\x8C") || s.starts_with("\xE3\x80\x81") ||
         s.starts_with("\xEF\xBC\x8C");
}

}  // namespace

void AppendCollapsedText(std::string_view raw, bool* after_space, std::string* out,
                         TextStats* stats) {
  const size_t start_size = out->size();
  const auto* s = reinterpret_cast<const unsigned char*>(raw.data());
  const size_t n = raw.size();
  bool space = *after_space;
  size_t i = 0;
  while (i < n) {
    const uint8_t cls = kClasses[s[i]];
    if (cls == kPlain || cls == kLead) {
      if (cls == kLead && IsWideComma(raw.substr(i))) ++stats->commas;
      uint32_t continuation = IsContinuation(s[i]);
      const size_t j = PlainRunEnd(s, i + 1, n, &continuation);
      out->append(raw.data() + i, j - i);
      stats->chars += static_cast<uint32_t>(j - i) - continuation;
      space = false;
      i = j;
    } else if (cls == kSpace) {
      if (!space) {
        out->push_back(' ');
        ++stats->chars;
        space = true;
      }
      // Markup is indented: runs of whitespace are long.
      i = SkipOutside<kNotSpaces>(s + i + 1, s + n) - s;
    } else if (cls == kComma) {
      out->push_back(',');
      ++stats->chars;
      ++stats->commas;
      space = false;
      ++i;
    } else if (cls == kAmp) {
      const size_t before = out->size();
      size_t used = DecodeCharacterReference(raw.substr(i), /*in_attribute=*/false, out);
      if (used == 0) {
        out->push_back('&');
        used = 1;
      }
      const std::string_view added = std::string_view(*out).substr(before);
      stats->chars += CountChars(added);
      stats->commas += added == ",";
      space = false;
      i += used;
    } else {
      ++i;  // NUL
    }
  }
  *after_space = space;
  stats->bytes += static_cast<uint32_t>(out->size() - start_size);
}

std::string CollapseWhitespace(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space = true;  // drops leading whitespace
  for (char c : text) {
    if (kClasses[static_cast<unsigned char>(c)] == kSpace) {
      if (!space) out.push_back(' ');
      space = true;
    } else {
      out.push_back(c);
      space = false;
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace pagesieve::content
