#pragma once

// Character references (&amp; &#233; &#x1F600;) in text and attribute
// values. Internal.

#include <cstddef>
#include <string>
#include <string_view>

namespace pagesieve::content {

// Decodes the reference at the start of `s` (s[0] == '&'), appends its UTF-8
// to `out` and returns the bytes consumed; returns 0 (appending nothing)
// when `s` starts no reference, in which case '&' is literal text. Numeric
// references follow the WHATWG rules (C1 controls as windows-1252, zero,
// surrogates and out-of-range values as U+FFFD). In attribute values a
// legacy reference without ';' followed by '=' or an alphanumeric is literal.
size_t DecodeCharacterReference(std::string_view s, bool in_attribute, std::string* out);

// Appends `raw` with every reference decoded.
void AppendDecoded(std::string_view raw, bool in_attribute, std::string* out);

}  // namespace pagesieve::content
