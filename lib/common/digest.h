#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

namespace pagesieve {

// A 128-bit digest (a truncated SHA-256 of a canonical URL or of normalized
// main text). Shared by lib/fingerprint, which computes digests, and
// lib/store, which keys entries by them.
struct Digest128 {
  std::array<uint8_t, 16> bytes{};

  // Lowercase hex, 32 characters.
  std::string Hex() const {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out(32, '0');
    for (size_t i = 0; i < 16; ++i) {
      out[2 * i] = kHex[bytes[i] >> 4];
      out[2 * i + 1] = kHex[bytes[i] & 15];
    }
    return out;
  }

  // The raw 16 bytes, for use in keys.
  std::string_view View() const {
    return std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  static Digest128 FromView(std::string_view raw) {
    Digest128 d;
    std::memcpy(d.bytes.data(), raw.data(), raw.size() < 16 ? raw.size() : 16);
    return d;
  }

  // The first 8 bytes as an integer: the digest is uniformly distributed, so
  // any 64 bits of it serve as a hash (Bloom probes, hash maps).
  uint64_t Low64() const {
    uint64_t v;
    std::memcpy(&v, bytes.data(), sizeof(v));
    return v;
  }

  friend auto operator<=>(const Digest128&, const Digest128&) = default;
};

}  // namespace pagesieve

template <>
struct std::hash<pagesieve::Digest128> {
  size_t operator()(const pagesieve::Digest128& d) const noexcept { return d.Low64(); }
};
