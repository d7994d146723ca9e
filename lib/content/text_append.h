#pragma once

// Appending HTML text to a buffer: character references decoded, runs of
// whitespace collapsed to one space, code points and commas counted on the
// way. Internal; the tree builder's inner loop.

#include <cstdint>
#include <string>
#include <string_view>

namespace pagesieve::content {

struct TextStats {
  uint32_t bytes = 0;   // bytes appended
  uint32_t chars = 0;   // code points appended
  uint32_t commas = 0;  // ',' and the CJK/Arabic commas
};

// Appends `raw` to `out`. `after_space` says whether `out` already ends in
// a collapsed space (so a leading run of whitespace adds nothing); it is
// updated. NUL bytes are dropped.
void AppendCollapsedText(std::string_view raw, bool* after_space, std::string* out,
                         TextStats* stats);

// Collapses whitespace in already-decoded text, trimming both ends.
std::string CollapseWhitespace(std::string_view text);

}  // namespace pagesieve::content
