#include "url/canonicalizer.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>

#include "url/host.h"
#include "url/param_matcher.h"
#include "url/path.h"
#include "url/query.h"
#include "url/raw_url.h"

namespace pagesieve::url {
namespace {

using internal::RawUrl;
using internal::Scheme;

// Offsets in CanonicalUrl are 32-bit and the output is at most three times
// the input, so the length limit is capped well below 4 GiB.
constexpr size_t kMaxLengthCap = size_t{1} << 28;

bool IsTrimmed(char c) { return static_cast<unsigned char>(c) <= 0x20; }

// Whether any byte is below 0x20, eight bytes at a time ("hasless" from Bit
// Twiddling Hacks): a plain loop over the bytes cost ~6 instructions per byte
// here, as GCC does not vectorize it at -O2.
bool HasControl(std::string_view text) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHighs = 0x8080808080808080ull;
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    if (((word - kOnes * 0x20) & ~word & kHighs) != 0) return true;
  }
  for (; i < text.size(); ++i) {
    if (static_cast<unsigned char>(text[i]) < 0x20) return true;
  }
  return false;
}

// Step 1: strip leading and trailing C0 controls and spaces, remove every
// tab, CR and LF. Returns a view of `raw`, or of `storage` when bytes had to
// be removed from the middle (rare: checked first without copying).
std::string_view Clean(std::string_view raw, std::string* storage) {
  while (!raw.empty() && IsTrimmed(raw.front())) raw.remove_prefix(1);
  while (!raw.empty() && IsTrimmed(raw.back())) raw.remove_suffix(1);
  if (!HasControl(raw)) return raw;
  storage->reserve(raw.size());
  for (char c : raw) {
    if (c != '\t' && c != '\n' && c != '\r') storage->push_back(c);
  }
  return *storage;
}

// Step 4: the port to write, or "" when it is empty or a default one.
StatusOr<uint32_t> ParsePort(std::string_view digits) {
  uint32_t port = 0;
  for (char c : digits) {
    port = port * 10 + static_cast<uint32_t>(c - '0');
    if (port > 65535) return Status::InvalidArgument("invalid port");
  }
  return port;
}

bool IsDefaultPort(Scheme scheme, uint32_t port) {
  return port == (scheme == Scheme::kHttps ? 443u : 80u);
}

}  // namespace

Canonicalizer::Canonicalizer(CanonicalizerOptions options)
    : options_(std::move(options)),
      strip_params_(std::make_unique<ParamMatcher>(options_.strip_params)) {
  options_.max_length = std::min(options_.max_length, kMaxLengthCap);
}

Canonicalizer::~Canonicalizer() = default;
Canonicalizer::Canonicalizer(Canonicalizer&&) noexcept = default;
Canonicalizer& Canonicalizer::operator=(Canonicalizer&&) noexcept = default;

StatusOr<CanonicalUrl> Canonicalizer::Canonicalize(std::string_view raw) const {
  std::string cleaned_storage;
  const std::string_view cleaned = Clean(raw, &cleaned_storage);
  if (cleaned.size() > options_.max_length) {
    return Status::InvalidArgument("URL longer than url.max_length");
  }
  PS_ASSIGN_OR_RETURN(const RawUrl parts, internal::SplitRawUrl(cleaned));

  CanonicalUrl url;
  std::string& out = url.spec;
  out.reserve(cleaned.size() + 16);
  const bool https = parts.scheme == Scheme::kHttps || options_.fold_scheme;
  out.append(https ? "https://" : "http://");

  internal::HostSpan host;
  PS_RETURN_IF_ERROR(internal::AppendCanonicalHost(parts.host, options_.strip_www, &out, &host));

  if (!parts.port.empty()) {
    PS_ASSIGN_OR_RETURN(const uint32_t port, ParsePort(parts.port));
    // With fold_scheme, a port that is the default of either the original or
    // the written scheme goes, so that the result is a fixed point.
    const bool drop = IsDefaultPort(parts.scheme, port) ||
                      IsDefaultPort(https ? Scheme::kHttps : Scheme::kHttp, port);
    if (!drop) {
      char digits[8];
      char* end = std::to_chars(digits, digits + sizeof(digits), port).ptr;
      out.push_back(':');
      out.append(digits, end - digits);
    }
  }

  url.path_begin = static_cast<uint32_t>(out.size());
  internal::AppendCanonicalPath(
      parts.path, {strip_params_.get(), options_.strip_index, options_.strip_trailing_slash}, &out);
  url.query_begin = static_cast<uint32_t>(out.size());
  if (parts.has_query) {
    internal::AppendCanonicalQuery(parts.query, {strip_params_.get(), options_.sort_query}, &out);
  }
  if (out.size() > options_.max_length) {
    // Kept within the limit so that canonicalizing the result succeeds too.
    return Status::InvalidArgument("canonical URL longer than url.max_length");
  }
  url.host_begin = static_cast<uint32_t>(host.begin);
  url.host_end = static_cast<uint32_t>(host.end);
  return url;
}

}  // namespace pagesieve::url
