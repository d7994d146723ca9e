#include "url/percent_encoding.h"

#include <array>

#include "common/byte_set_scan.h"

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

// The bytes a run of copies stops at: every class but kCopy.
constexpr ByteSet NotCopied(const ClassTable& table) {
  ByteSet set{};
  for (int b = 0; b < 256; ++b) set[b] = table[b] != kCopy;
  return set;
}

// The end of the run of kCopy bytes starting at p: the hot loop of the whole
// canonicalizer, 16 bytes at a time (common/byte_set_scan.h); see
// docs/url-canonicalization.md for the measurement.
template <const ClassTable& kTable>
const char* SkipCopies(const char* p, const char* end) {
  static constexpr ByteSet kStops = NotCopied(kTable);
  const auto* bytes = reinterpret_cast<const unsigned char*>(p);
  return p + (SkipOutside<kStops>(bytes, reinterpret_cast<const unsigned char*>(end)) - bytes);
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
