#include "warc/header_fields.h"

#include <algorithm>

namespace pagesieve::warc {
namespace {

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// The line at `pos` without its ending; advances `pos` past the ending.
std::string_view NextLine(std::string_view text, size_t* pos) {
  const size_t end = text.find('\n', *pos);
  const size_t stop = end == std::string_view::npos ? text.size() : end;
  std::string_view line = text.substr(*pos, stop - *pos);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  *pos = end == std::string_view::npos ? text.size() : end + 1;
  return line;
}

}  // namespace

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return Lower(x) == Lower(y); });
}

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

StatusOr<HeaderFields> HeaderFields::Parse(std::string_view text) {
  HeaderFields out;
  size_t pos = 0;
  while (pos < text.size()) {
    const std::string_view line = NextLine(text, &pos);
    if (line.empty()) continue;
    if ((line.front() == ' ' || line.front() == '\t') && !out.fields_.empty()) {
      out.fields_.back().second.append(" ").append(TrimBlanks(line));
      continue;
    }
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return Status::InvalidArgument("header line without a field name: '" +
                                     std::string(line.substr(0, 80)) + "'");
    }
    out.fields_.emplace_back(std::string(TrimBlanks(line.substr(0, colon))),
                             std::string(TrimBlanks(line.substr(colon + 1))));
  }
  return out;
}

std::optional<std::string_view> HeaderFields::Get(std::string_view name) const {
  for (const auto& [key, value] : fields_) {
    if (EqualsIgnoreCase(key, name)) return std::string_view(value);
  }
  return std::nullopt;
}

std::optional<HeaderSplit> SplitHeader(std::string_view text) {
  // The empty line ends with CRLF by the standards; LF alone is tolerated.
  size_t pos = 0;
  HeaderSplit split;
  split.first_line = NextLine(text, &pos);
  const size_t fields_start = pos;
  while (pos < text.size()) {
    const size_t line_start = pos;
    if (NextLine(text, &pos).empty()) {
      split.fields = text.substr(fields_start, line_start - fields_start);
      split.body_start = pos;
      return split;
    }
  }
  return std::nullopt;
}

}  // namespace pagesieve::warc
