#include "url/ip_address.h"

#include <charconv>

#include "url/percent_encoding.h"

namespace pagesieve::url::internal {
namespace {

// The value of one IPv4 part, or nullopt when it is not a number. Values are
// capped just above 2^32 so that hostile digit strings cannot overflow.
std::optional<uint64_t> ParseIpv4Number(std::string_view part) {
  if (part.empty()) return std::nullopt;
  int radix = 10;
  if (part.size() >= 2 && part[0] == '0' && (part[1] == 'x' || part[1] == 'X')) {
    radix = 16;
    part.remove_prefix(2);
  } else if (part.size() >= 2 && part[0] == '0') {
    radix = 8;
    part.remove_prefix(1);
  }
  constexpr uint64_t kCap = uint64_t{1} << 33;
  uint64_t value = 0;
  for (char c : part) {
    const int digit = HexDigitValue(c);
    if (digit < 0 || digit >= radix) return std::nullopt;
    value = value * radix + digit;
    if (value > kCap) value = kCap;
  }
  return value;  // "0x" alone is 0, as WHATWG has it
}

std::string_view LastLabel(std::string_view host) {
  const size_t dot = host.rfind('.');
  return dot == std::string_view::npos ? host : host.substr(dot + 1);
}

}  // namespace

bool EndsInNumber(std::string_view host) {
  const std::string_view last = LastLabel(host);
  if (last.empty()) return false;
  bool all_digits = true;
  for (char c : last) all_digits = all_digits && c >= '0' && c <= '9';
  if (all_digits) return true;
  if (last.size() < 2 || last[0] != '0' || (last[1] != 'x' && last[1] != 'X')) return false;
  for (char c : last.substr(2)) {
    if (HexDigitValue(c) < 0) return false;
  }
  return true;
}

std::optional<uint32_t> ParseIpv4(std::string_view host) {
  uint64_t parts[4];
  size_t count = 0;
  while (true) {
    const size_t dot = host.find('.');
    if (count == 4) return std::nullopt;
    std::optional<uint64_t> number = ParseIpv4Number(host.substr(0, dot));
    if (!number) return std::nullopt;
    parts[count++] = *number;
    if (dot == std::string_view::npos) break;
    host.remove_prefix(dot + 1);
  }
  uint64_t address = 0;
  for (size_t i = 0; i + 1 < count; ++i) {
    if (parts[i] > 255) return std::nullopt;
    address |= parts[i] << (8 * (3 - i));
  }
  const uint64_t last = parts[count - 1];
  if (last >= (uint64_t{1} << (8 * (5 - count)))) return std::nullopt;
  return static_cast<uint32_t>(address | last);
}

void AppendIpv4(uint32_t address, std::string* out) {
  // One octet at a time, straight into `out`: GCC 12 at -O3 could not prove
  // that four octets and three dots fit a shared 16-byte buffer and warned
  // (-Wstringop-overflow), which broke Release builds under -Werror.
  for (int shift = 24; shift >= 0; shift -= 8) {
    char octet[3];
    const std::to_chars_result r =
        std::to_chars(octet, octet + sizeof(octet), (address >> shift) & 0xff);
    out->append(octet, r.ptr);
    if (shift > 0) out->push_back('.');
  }
}

bool IsIpAddress(std::string_view host) {
  if (host.find(':') != std::string_view::npos) return true;
  if (host.empty()) return false;
  const std::optional<uint32_t> v4 = ParseIpv4(host);
  if (!v4) return false;
  // Only the canonical dotted-decimal form counts: "1.2.3" is not a host we emit.
  std::string canonical;
  AppendIpv4(*v4, &canonical);
  return canonical == host;
}

}  // namespace pagesieve::url::internal
