#include "fingerprint/base32.h"

#include <cstdint>

namespace pagesieve::fingerprint {

std::string Base32Encode(std::string_view bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  std::string out;
  out.reserve((bytes.size() + 4) / 5 * 8);
  uint32_t buffer = 0;  // pending bits, right-aligned
  int bits = 0;
  for (unsigned char c : bytes) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out.push_back(kAlphabet[(buffer >> bits) & 31]);
    }
    buffer &= (1u << bits) - 1;  // keep only the pending bits, so nothing overflows
  }
  if (bits > 0) out.push_back(kAlphabet[(buffer << (5 - bits)) & 31]);
  while (out.size() % 8 != 0) out.push_back('=');
  return out;
}

}  // namespace pagesieve::fingerprint
