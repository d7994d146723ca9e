// IPv6 parsing and serialization (declared in ip_address.h).

#include <algorithm>

#include "url/ip_address.h"
#include "url/percent_encoding.h"

namespace pagesieve::url::internal {
namespace {

// Reads a dotted-decimal IPv4 tail ("1.2.3.4", no leading zeros, exactly
// four parts) into two pieces.
bool ParseIpv4Tail(std::string_view text, uint16_t* high, uint16_t* low) {
  uint32_t address = 0;
  int parts = 0;
  size_t i = 0;
  while (parts < 4) {
    if (parts > 0) {
      if (i >= text.size() || text[i] != '.') return false;
      ++i;
    }
    const size_t start = i;
    uint32_t value = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (i > start && text[start] == '0') return false;  // leading zero
      value = value * 10 + (text[i] - '0');
      if (value > 255) return false;
      ++i;
    }
    if (i == start) return false;
    address = (address << 8) | value;
    ++parts;
  }
  if (i != text.size()) return false;
  *high = static_cast<uint16_t>(address >> 16);
  *low = static_cast<uint16_t>(address & 0xffff);
  return true;
}

}  // namespace

std::optional<Ipv6Address> ParseIpv6(std::string_view text) {
  Ipv6Address pieces{};
  int count = 0;      // pieces written
  int compress = -1;  // index where "::" stands, if any
  size_t i = 0;
  if (text.size() >= 2 && text[0] == ':' && text[1] == ':') {
    compress = 0;
    i = 2;
  } else if (!text.empty() && text[0] == ':') {
    return std::nullopt;
  }
  while (i < text.size()) {
    if (count == 8) return std::nullopt;
    if (text[i] == ':') {  // a second colon in a row: "::"
      if (compress >= 0) return std::nullopt;
      compress = count;
      ++i;
      continue;
    }
    const size_t start = i;
    uint32_t value = 0;
    while (i < text.size() && i - start < 4 && HexDigitValue(text[i]) >= 0) {
      value = value * 16 + HexDigitValue(text[i]);
      ++i;
    }
    if (i < text.size() && text[i] == '.') {
      if (i == start || count > 6) return std::nullopt;
      if (!ParseIpv4Tail(text.substr(start), &pieces[count], &pieces[count + 1])) {
        return std::nullopt;
      }
      count += 2;
      i = text.size();
      break;
    }
    if (i == start) return std::nullopt;
    pieces[count++] = static_cast<uint16_t>(value);
    if (i < text.size()) {
      if (text[i] != ':') return std::nullopt;
      ++i;
      if (i == text.size()) return std::nullopt;  // a trailing single ':'
    }
  }
  if (compress < 0) {
    if (count != 8) return std::nullopt;
    return pieces;
  }
  if (count == 8) return std::nullopt;  // "::" must stand for at least one piece
  // Move the pieces after "::" to the end; zeros fill the gap.
  const int tail = count - compress;
  std::move_backward(pieces.begin() + compress, pieces.begin() + count, pieces.end());
  std::fill(pieces.begin() + compress, pieces.end() - tail, 0);
  return pieces;
}

void AppendIpv6(const Ipv6Address& address, std::string* out) {
  // The first longest run of at least two zero pieces.
  int best_start = -1;
  int best_length = 1;
  for (int i = 0; i < 8;) {
    if (address[i] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && address[j] == 0) ++j;
    if (j - i > best_length) {
      best_start = i;
      best_length = j - i;
    }
    i = j;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 8; ++i) {
    if (i == best_start) {
      out->append(i == 0 ? "::" : ":");
      i += best_length - 1;
      continue;
    }
    char buffer[4];
    int n = 0;
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      const int digit = (address[i] >> shift) & 0xf;
      started = started || digit != 0 || shift == 0;
      if (started) buffer[n++] = kHex[digit];
    }
    out->append(buffer, n);
    if (i < 7) out->push_back(':');
  }
}

}  // namespace pagesieve::url::internal
