#pragma once

// Which character encoding a body is in: WHATWG labels, byte-order marks and
// the <meta> prescan. Internal.

#include <cstddef>
#include <string_view>

namespace pagesieve::content {

struct Encoding {
  std::string_view name;   // the WHATWG name, e.g. "windows-1252"
  const char* iconv_name;  // glibc iconv's name; nullptr for UTF-8
};

// The encoding a WHATWG label names ("latin1" → windows-1252, "sjis" →
// Shift_JIS...), after trimming and lowercasing; nullptr for labels we do
// not support (including the WHATWG "replacement" encodings).
const Encoding* EncodingForLabel(std::string_view label);

const Encoding& Utf8Encoding();

// The encoding announced by a byte-order mark at the start of `body`, and
// the BOM's length; nullptr (length 0) when there is none.
const Encoding* EncodingFromBom(std::string_view body, size_t* bom_length);

// The WHATWG prescan: the encoding declared by a <meta charset> or
// <meta http-equiv="content-type" content="...charset=..."> in the first
// 1024 bytes; nullptr when none is declared. UTF-16 declarations mean UTF-8
// (a page that could declare it in ASCII is not UTF-16).
const Encoding* EncodingFromMeta(std::string_view body);

// The charset=... value inside a content attribute or header ("text/html;
// charset=utf-8" → "utf-8"); empty when absent.
std::string_view CharsetFromContentAttribute(std::string_view content);

}  // namespace pagesieve::content
