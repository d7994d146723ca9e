#pragma once

// The parts of an HTTP Content-Type value lib/content needs. Internal.

#include <string>
#include <string_view>

namespace pagesieve::content {

struct MediaType {
  std::string essence;  // "type/subtype", lowercased; empty when unparseable
  std::string charset;  // the charset parameter as written (unquoted), or empty
};

// Parses "text/html; charset=UTF-8" and its many variants (spaces, quotes,
// upper case, stray semicolons). Never fails: garbage gives an empty essence.
MediaType ParseContentType(std::string_view content_type);

// ASCII helpers shared by the module's parsers.
inline bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}
inline char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
std::string_view TrimAsciiSpace(std::string_view s);
bool EqualsIgnoreCase(std::string_view a, std::string_view lower_b);
bool StartsWithIgnoreCase(std::string_view s, std::string_view lower_prefix);

}  // namespace pagesieve::content
