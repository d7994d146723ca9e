#pragma once

// Percent-encoding normalization shared by the path and the query.

#include <cstdint>
#include <string>
#include <string_view>

#include "common/hex.h"

namespace pagesieve::url::internal {

// RFC 3986 unreserved: A-Z a-z 0-9 - . _ ~
inline bool IsUnreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

inline char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

// Appends `in` to `out` in normal form:
//   - an escape of an unreserved character is decoded ("%7e" → "~");
//   - any other escape keeps its byte with uppercase hex ("%2f" → "%2F");
//   - a '%' not followed by two hex digits becomes "%25";
//   - controls, space, DEL, bytes ≥ 0x80 and  " < > ` { | } ^  are escaped;
//   - every other byte is copied.
// The result is a fixed point: normalizing it again changes nothing.
void AppendNormalized(std::string_view in, std::string* out);

// The same, but stopping at the first raw '/', '\' or ';' (path delimiters)
// or '&' or '=' (query delimiters), which are not appended. Returns the
// position of that byte in `in`, or in.size(). Lets the path and the query
// be normalized and split in a single pass over their bytes.
size_t AppendNormalizedPathPiece(std::string_view in, std::string* out);
size_t AppendNormalizedQueryPiece(std::string_view in, std::string* out);

}  // namespace pagesieve::url::internal
