#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pagesieve {

// The value of one hex digit, or -1 when `c` is not a hex digit.
constexpr int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `v` as 16 lowercase hex digits, most significant first: how SimHashes are
// written in verdicts, reports and the fingerprint command.
inline std::string Hex64(uint64_t v) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<size_t>(i)] = kHex[v & 15];
  return out;
}

// Every byte of `bytes` as two lowercase hex digits.
inline std::string HexBytes(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

}  // namespace pagesieve
