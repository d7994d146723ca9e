#include "content/html_entities.h"

#include <algorithm>
#include <cstring>

#include "common/hex.h"
#include "content/html_entities_table.h"
#include "content/utf8.h"

namespace pagesieve::content {
namespace {

constexpr size_t kMaxNameLength = 32;

// What windows-1252 puts at 0x80..0x9F; numeric references to those C1
// controls mean these characters (WHATWG).
constexpr uint16_t kC1Replacements[32] = {
    0x20AC, 0x81,   0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x8D,   0x017D, 0x8F,   0x90,   0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,   0x017E, 0x0178};

bool IsAsciiAlnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

size_t DecodeNumeric(std::string_view s, std::string* out) {
  // s starts with "&#".
  size_t i = 2;
  const bool hex = i < s.size() && (s[i] == 'x' || s[i] == 'X');
  if (hex) ++i;
  const size_t digits_start = i;
  uint32_t value = 0;
  for (; i < s.size(); ++i) {
    const int d = hex ? HexDigitValue(s[i]) : (s[i] >= '0' && s[i] <= '9' ? s[i] - '0' : -1);
    if (d < 0) break;
    value = std::min<uint32_t>(value * (hex ? 16 : 10) + d, 0x110000);  // saturates
  }
  if (i == digits_start) return 0;
  if (i < s.size() && s[i] == ';') ++i;
  if (value == 0) value = 0xFFFD;
  if (value >= 0x80 && value <= 0x9F) value = kC1Replacements[value - 0x80];
  AppendCodePoint(value, out);
  return i;
}

const NamedReference* FindNamed(std::string_view name) {
  const NamedReference* begin = kNamedReferences;
  const NamedReference* end = kNamedReferences + kNamedReferenceCount;
  const NamedReference* it = std::lower_bound(
      begin, end, name,
      [](const NamedReference& r, std::string_view n) { return n.compare(r.name) > 0; });
  return (it != end && name == it->name) ? it : nullptr;
}

}  // namespace

size_t DecodeCharacterReference(std::string_view s, bool in_attribute, std::string* out) {
  if (s.size() < 2) return 0;
  if (s[1] == '#') return DecodeNumeric(s, out);
  size_t i = 1;
  while (i < s.size() && i <= kMaxNameLength && IsAsciiAlnum(s[i])) ++i;
  if (i == 1 || i > kMaxNameLength) return 0;
  const std::string_view name = s.substr(1, i - 1);
  const NamedReference* ref = FindNamed(name);
  if (ref == nullptr) return 0;
  const bool semicolon = i < s.size() && s[i] == ';';
  if (!semicolon) {
    if (!ref->legacy) return 0;
    if (in_attribute && i < s.size() && s[i] == '=') return 0;
  }
  AppendCodePoint(ref->code_point, out);
  return semicolon ? i + 1 : i;
}

void AppendDecoded(std::string_view raw, bool in_attribute, std::string* out) {
  while (!raw.empty()) {
    const void* amp = std::memchr(raw.data(), '&', raw.size());
    if (amp == nullptr) {
      out->append(raw);
      return;
    }
    const size_t at = static_cast<const char*>(amp) - raw.data();
    out->append(raw.data(), at);
    raw.remove_prefix(at);
    const size_t used = DecodeCharacterReference(raw, in_attribute, out);
    if (used == 0) {
      out->push_back('&');
      raw.remove_prefix(1);
    } else {
      raw.remove_prefix(used);
    }
  }
}

}  // namespace pagesieve::content
