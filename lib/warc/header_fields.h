#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::warc {

// Named fields as WARC and HTTP headers write them: "Name: value" lines,
// names compared without regard to case, a line starting with a space or a
// tab continuing the one before. The first line (a version or status line)
// is not part of them.
class HeaderFields {
 public:
  // Parses the lines of `text` (CRLF or LF endings, no first line, no
  // closing empty line). A line without a colon is an InvalidArgument.
  static StatusOr<HeaderFields> Parse(std::string_view text);

  // The first field so named, trimmed of surrounding blanks.
  std::optional<std::string_view> Get(std::string_view name) const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

// Splits `text` at the first empty line: the header (without it) and where
// the body starts. nullopt when there is no empty line.
struct HeaderSplit {
  std::string_view first_line;
  std::string_view fields;  // the lines after the first
  size_t body_start = 0;
};
std::optional<HeaderSplit> SplitHeader(std::string_view text);

bool EqualsIgnoreCase(std::string_view a, std::string_view b);
std::string_view TrimBlanks(std::string_view s);

}  // namespace pagesieve::warc
