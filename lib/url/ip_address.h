#pragma once

// IP address hosts, parsed as the WHATWG URL Standard parses them, so that a
// host means to us what it means to a browser.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pagesieve::url::internal {

// Whether a domain (lowercase, trailing dots removed) must be read as an IPv4
// address: its last label is all decimal digits or a 0x hex number. Such a
// host that fails ParseIpv4 is an error, not a domain name.
bool EndsInNumber(std::string_view host);

// 1 to 4 dot-separated parts, each decimal, 0-prefixed octal or 0x-prefixed
// hex; all but the last at most 255, the last filling the remaining bytes
// ("1.2.3" is 1.2.0.3, "3279880203" is 195.127.0.11).
std::optional<uint32_t> ParseIpv4(std::string_view host);

// Dotted decimal.
void AppendIpv4(uint32_t address, std::string* out);

using Ipv6Address = std::array<uint16_t, 8>;

// The text between the brackets: hex pieces, at most one "::", optionally a
// dotted-decimal IPv4 tail. Zone ids ("%25eth0") are not accepted.
std::optional<Ipv6Address> ParseIpv6(std::string_view text);

// Lowercase hex without leading zeros, the first longest run of two or more
// zero pieces compressed to "::" (RFC 5952 / WHATWG), no brackets. An
// IPv4-mapped address is written in hex too ("::ffff:102:304").
void AppendIpv6(const Ipv6Address& address, std::string* out);

// Whether a canonical host is an IP address: dotted-decimal IPv4, or IPv6
// (contains ':'), with or without brackets.
bool IsIpAddress(std::string_view host);

}  // namespace pagesieve::url::internal
