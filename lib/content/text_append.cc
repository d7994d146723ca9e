#include "content/text_append.h"

#include <array>

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
      size_t j = i + 1;
      uint32_t continuation = IsContinuation(s[i]);
      while (j < n && kClasses[s[j]] == kPlain) continuation += IsContinuation(s[j++]);
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
      ++i;
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
