#include "url/raw_url.h"

#include "url/percent_encoding.h"

namespace pagesieve::url::internal {
namespace {

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool EqualsLower(std::string_view text, std::string_view lower) {
  if (text.size() != lower.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (AsciiLower(text[i]) != lower[i]) return false;
  }
  return true;
}

// The scheme per RFC 3986 (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"),
// or an empty view when `url` does not start with one.
std::string_view SchemeOf(std::string_view url) {
  if (url.empty() || !IsAlpha(url[0])) return {};
  for (size_t i = 1; i < url.size(); ++i) {
    const char c = url[i];
    if (c == ':') return url.substr(0, i);
    if (!IsAlpha(c) && !IsDigit(c) && c != '+' && c != '-' && c != '.') return {};
  }
  return {};
}

// Splits "host[:port]" (an IPv6 host keeps its brackets).
Status SplitHostPort(std::string_view host_port, RawUrl* url) {
  size_t colon;
  if (!host_port.empty() && host_port[0] == '[') {
    const size_t close = host_port.find(']');
    if (close == std::string_view::npos) return Status::InvalidArgument("invalid IPv6 address");
    colon = close + 1;
    if (colon < host_port.size() && host_port[colon] != ':') {
      return Status::InvalidArgument("invalid IPv6 address");
    }
  } else {
    colon = host_port.find(':');
  }
  url->host = host_port.substr(0, colon);
  if (colon < host_port.size()) {
    url->port = host_port.substr(colon + 1);
    for (char c : url->port) {
      if (!IsDigit(c)) return Status::InvalidArgument("invalid port");
    }
  }
  if (url->host.empty()) return Status::InvalidArgument("empty host");
  return Status::Ok();
}

}  // namespace

StatusOr<RawUrl> SplitRawUrl(std::string_view text) {
  // Nearly every input starts with "http:" or "https:": check that first.
  std::string_view scheme;
  if (text.size() >= 5 && EqualsLower(text.substr(0, 5), "http:")) {
    scheme = text.substr(0, 4);
  } else if (text.size() >= 6 && EqualsLower(text.substr(0, 6), "https:")) {
    scheme = text.substr(0, 5);
  } else {
    scheme = SchemeOf(text);
  }
  if (scheme.empty()) return Status::InvalidArgument("missing scheme");
  RawUrl url;
  if (EqualsLower(scheme, "https")) {
    url.scheme = Scheme::kHttps;
  } else if (!EqualsLower(scheme, "http")) {
    return Status::InvalidArgument("unsupported scheme");
  }
  size_t i = scheme.size() + 1;
  while (i < text.size() && (text[i] == '/' || text[i] == '\\')) ++i;
  const size_t authority_begin = i;
  size_t at = std::string_view::npos;  // the last '@' of the authority
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '/' || c == '\\' || c == '?' || c == '#') break;
    if (c == '@') at = i;
  }
  const size_t host_begin = at == std::string_view::npos ? authority_begin : at + 1;
  PS_RETURN_IF_ERROR(SplitHostPort(text.substr(host_begin, i - host_begin), &url));
  // The rest is usually the longest part: find the delimiters with memchr.
  std::string_view rest = text.substr(i);
  rest = rest.substr(0, rest.find('#'));
  const size_t question = rest.find('?');
  url.path = rest.substr(0, question);
  if (question != std::string_view::npos) {
    url.has_query = true;
    url.query = rest.substr(question + 1);
  }
  return url;
}

}  // namespace pagesieve::url::internal
