#include "content/media_type.h"

namespace pagesieve::content {
namespace {

bool IsTokenChar(char c) {
  return c > ' ' && c < 127 && c != ';' && c != '=' && c != '"' && c != '/' && c != ',';
}

// Reads a parameter value (quoted-string or token) from the front of `rest`.
std::string ReadValue(std::string_view* rest) {
  std::string value;
  std::string_view r = *rest;
  if (!r.empty() && r[0] == '"') {
    size_t i = 1;
    for (; i < r.size() && r[i] != '"'; ++i) {
      if (r[i] == '\\' && i + 1 < r.size()) ++i;
      value.push_back(r[i]);
    }
    r.remove_prefix(i < r.size() ? i + 1 : i);
  } else {
    size_t i = 0;
    while (i < r.size() && r[i] != ';') ++i;
    value = std::string(TrimAsciiSpace(r.substr(0, i)));
    r.remove_prefix(i);
  }
  *rest = r;
  return value;
}

}  // namespace

std::string_view TrimAsciiSpace(std::string_view s) {
  while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view lower_b) {
  if (a.size() != lower_b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (AsciiLower(a[i]) != lower_b[i]) return false;
  }
  return true;
}

bool StartsWithIgnoreCase(std::string_view s, std::string_view lower_prefix) {
  return s.size() >= lower_prefix.size() &&
         EqualsIgnoreCase(s.substr(0, lower_prefix.size()), lower_prefix);
}

MediaType ParseContentType(std::string_view content_type) {
  MediaType result;
  std::string_view rest = TrimAsciiSpace(content_type);
  size_t i = 0;
  while (i < rest.size() && IsTokenChar(rest[i])) ++i;
  if (i == 0 || i >= rest.size() || rest[i] != '/') return result;
  size_t j = i + 1;
  while (j < rest.size() && IsTokenChar(rest[j])) ++j;
  if (j == i + 1) return result;
  for (char c : rest.substr(0, j)) result.essence.push_back(AsciiLower(c));
  rest.remove_prefix(j);
  // Parameters: ; name=value, in any spacing; the first charset wins.
  while (!rest.empty()) {
    const size_t semi = rest.find(';');
    if (semi == std::string_view::npos) break;
    rest = TrimAsciiSpace(rest.substr(semi + 1));
    const size_t eq = rest.find_first_of("=;");
    if (eq == std::string_view::npos || rest[eq] == ';') continue;
    const std::string_view name = TrimAsciiSpace(rest.substr(0, eq));
    rest = TrimAsciiSpace(rest.substr(eq + 1));
    std::string value = ReadValue(&rest);
    if (result.charset.empty() && EqualsIgnoreCase(name, "charset")) result.charset = value;
  }
  return result;
}

}  // namespace pagesieve::content
