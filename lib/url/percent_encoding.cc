#include "url/percent_encoding.h"

#include <array>

namespace pagesieve::url::internal {
namespace {

// Whether a byte is copied as it is (true) or needs a look (escape or '%').
constexpr std::array<bool, 256> MakeLiteralTable() {
  std::array<bool, 256> table{};
  for (int c = 0x21; c < 0x7f; ++c) table[c] = true;
  for (char c : std::string_view("\"<>`{}|^%")) table[static_cast<unsigned char>(c)] = false;
  return table;
}
constexpr std::array<bool, 256> kLiteral = MakeLiteralTable();

constexpr char kUpperHex[] = "0123456789ABCDEF";

void AppendEscape(unsigned char byte, std::string* out) {
  const char escape[3] = {'%', kUpperHex[byte >> 4], kUpperHex[byte & 0xf]};
  out->append(escape, 3);
}

}  // namespace

void AppendNormalized(std::string_view in, std::string* out) {
  const char* p = in.data();
  const char* const end = p + in.size();
  while (p < end) {
    // Copy the run of literal bytes in one go: most components are all literal.
    const char* run = p;
    while (p < end && kLiteral[static_cast<unsigned char>(*p)]) ++p;
    out->append(run, p - run);
    if (p == end) break;
    const auto byte = static_cast<unsigned char>(*p);
    if (byte != '%') {
      AppendEscape(byte, out);
      ++p;
      continue;
    }
    const int hi = end - p >= 3 ? HexValue(p[1]) : -1;
    const int lo = hi >= 0 ? HexValue(p[2]) : -1;
    if (lo < 0) {
      out->append("%25", 3);
      ++p;
      continue;
    }
    const auto decoded = static_cast<unsigned char>(hi * 16 + lo);
    if (IsUnreserved(decoded)) {
      out->push_back(static_cast<char>(decoded));
    } else {
      AppendEscape(decoded, out);
    }
    p += 3;
  }
}

}  // namespace pagesieve::url::internal
