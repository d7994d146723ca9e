#pragma once

// UTF-8 validation and repair, with a fast path for ASCII runs (most bytes
// of most pages). Internal to lib/content.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace pagesieve::content {

// U+FFFD REPLACEMENT CHARACTER, encoded.
inline constexpr std::string_view kReplacementChar = "\xEF\xBF\xBD";

// Length of the longest prefix of `text` made of ASCII bytes.
size_t AsciiPrefixLength(std::string_view text);

// Length of the longest prefix of `text` that is valid UTF-8 (shortest form,
// no surrogates, at most U+10FFFF). Equals text.size() when all is valid.
size_t ValidUtf8PrefixLength(std::string_view text);

// Appends `text` to `out` with every maximal invalid subsequence replaced by
// U+FFFD, as the WHATWG decoder does.
void AppendRepairedUtf8(std::string_view text, std::string* out);

// Appends the UTF-8 encoding of `code_point` (U+FFFD for surrogates and
// values beyond U+10FFFF).
void AppendCodePoint(uint32_t code_point, std::string* out);

}  // namespace pagesieve::content
