#include "url/host.h"

#include <libpsl.h>

#include <array>
#include <optional>

#include "url/idna.h"
#include "url/ip_address.h"
#include "url/percent_encoding.h"

namespace pagesieve::url::internal {
namespace {

// WHATWG's forbidden domain code points: C0 controls, space, DEL and
// # % / : < > ? @ [ \ ] ^ |
constexpr std::array<bool, 256> MakeForbiddenTable() {
  std::array<bool, 256> table{};
  for (int c = 0; c <= 0x20; ++c) table[c] = true;
  table[0x7f] = true;
  for (char c : std::string_view("#%/:<>?@[\\]^|")) table[static_cast<unsigned char>(c)] = true;
  return table;
}
constexpr std::array<bool, 256> kForbidden = MakeForbiddenTable();

bool HasForbiddenByte(std::string_view host) {
  for (char c : host) {
    if (kForbidden[static_cast<unsigned char>(c)]) return true;
  }
  return false;
}

// What decoding found out about a host.
struct Decoded {
  bool non_ascii = false;
  bool forbidden = false;
};

// Percent-decodes and ASCII-lowercases `raw` onto `out`, noting non-ASCII
// and forbidden bytes on the way. Writes in place: the result is never longer
// than `raw`.
Status AppendDecodedLower(std::string_view raw, std::string* out, Decoded* decoded) {
  const size_t begin = out->size();
  out->resize(begin + raw.size());
  char* w = out->data() + begin;
  unsigned char any = 0;
  bool forbidden = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '%') {
      const int hi = i + 2 < raw.size() ? HexDigitValue(raw[i + 1]) : -1;
      const int lo = hi >= 0 ? HexDigitValue(raw[i + 2]) : -1;
      if (lo < 0) return Status::InvalidArgument("invalid percent-escape in host");
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    any |= static_cast<unsigned char>(c);
    forbidden |= kForbidden[static_cast<unsigned char>(c)];
    *w++ = AsciiLower(c);
  }
  out->resize(w - out->data());
  decoded->non_ascii = (any & 0x80) != 0;
  decoded->forbidden = forbidden;
  return Status::Ok();
}

Status AppendIpv6Host(std::string_view raw, std::string* out, HostSpan* span) {
  if (raw.size() < 2 || raw.back() != ']') return Status::InvalidArgument("invalid IPv6 address");
  const std::optional<Ipv6Address> address = ParseIpv6(raw.substr(1, raw.size() - 2));
  if (!address) return Status::InvalidArgument("invalid IPv6 address");
  out->push_back('[');
  span->begin = out->size();
  AppendIpv6(*address, out);
  span->end = out->size();
  out->push_back(']');
  return Status::Ok();
}

// Drops leading "www." labels while the rest is more than a public suffix, so
// "www.co.uk" and "www.localhost" stay whole.
void StripWww(std::string* out, size_t begin) {
  const psl_ctx_t* psl = psl_builtin();
  while (out->compare(begin, 4, "www.") == 0) {
    const std::string rest = out->substr(begin + 4);
    if (psl == nullptr || psl_is_public_suffix(psl, rest.c_str())) return;
    out->erase(begin, 4);
  }
}

}  // namespace

Status AppendCanonicalHost(std::string_view raw, bool strip_www, std::string* out, HostSpan* span) {
  if (!raw.empty() && raw[0] == '[') return AppendIpv6Host(raw, out, span);
  const size_t begin = out->size();
  Decoded decoded;
  PS_RETURN_IF_ERROR(AppendDecodedLower(raw, out, &decoded));
  // Checked before IDNA too: libidn2 would stop at a NUL and hide the rest.
  if (decoded.forbidden) return Status::InvalidArgument("forbidden character in host");
  if (decoded.non_ascii || HasAceLabel(std::string_view(*out).substr(begin))) {
    const std::string utf8 = out->substr(begin);
    out->resize(begin);
    PS_RETURN_IF_ERROR(AppendIdnaHost(utf8, out));
    // UTS-46 maps some characters to ASCII ones we forbid (U+FF1A → ':').
    if (HasForbiddenByte(std::string_view(*out).substr(begin))) {
      return Status::InvalidArgument("forbidden character in host");
    }
  }
  while (out->size() > begin && out->back() == '.') out->pop_back();
  const std::string_view host = std::string_view(*out).substr(begin);
  if (host.empty()) return Status::InvalidArgument("empty host");
  if (EndsInNumber(host)) {
    const std::optional<uint32_t> address = ParseIpv4(host);
    if (!address) return Status::InvalidArgument("invalid IPv4 address");
    out->resize(begin);
    AppendIpv4(*address, out);
  } else if (strip_www) {
    StripWww(out, begin);
  }
  span->begin = begin;
  span->end = out->size();
  return Status::Ok();
}

}  // namespace pagesieve::url::internal
