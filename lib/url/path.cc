#include "url/path.h"

#include <algorithm>
#include <array>

#include "url/param_matcher.h"
#include "url/percent_encoding.h"

namespace pagesieve::url::internal {
namespace {

bool IsSlash(char c) { return c == '/' || c == '\\'; }

// Removes from the end of `out`, which holds a segment whose first ';' is at
// `first`, every ";param" whose name (up to '=') matches. The part before the
// first ';' always stays.
void StripSegmentParams(const ParamMatcher& matcher, size_t first, std::string* out) {
  size_t write = first;
  size_t read = first;
  while (read < out->size()) {
    size_t next = out->find(';', read + 1);
    if (next == std::string::npos) next = out->size();
    const std::string_view param = std::string_view(*out).substr(read + 1, next - read - 1);
    const std::string_view name = param.substr(0, param.find('='));
    if (!matcher.Matches(name)) {
      // Forward copy within the buffer: write <= read, so this is safe.
      std::copy(out->begin() + read, out->begin() + next, out->begin() + write);
      write += next - read;
    }
    read = next;
  }
  out->resize(write);
}

// Truncates `out` to the start of the last segment after `path_begin`
// (what ".." does), never past the root.
void PopSegment(size_t path_begin, std::string* out) {
  const size_t slash = out->rfind('/');
  out->resize(slash == std::string::npos || slash < path_begin ? path_begin : slash);
}

bool IsIndexName(std::string_view segment) {
  static constexpr std::array<std::string_view, 5> kNames = {"index.html", "index.htm", "index.php",
                                                             "default.asp", "default.aspx"};
  for (std::string_view name : kNames) {
    if (segment.size() != name.size()) continue;
    bool equal = true;
    for (size_t i = 0; i < name.size() && equal; ++i) equal = AsciiLower(segment[i]) == name[i];
    if (equal) return true;
  }
  return false;
}

// The optional rules, applied until nothing changes so that the result is a
// fixed point ("/a/index.html/" → "/a/index.html" → "/a/" → "/a").
void ApplyOptionalRules(const PathOptions& options, size_t path_begin, std::string* out) {
  bool changed = true;
  while (changed) {
    changed = false;
    const size_t last = out->rfind('/');
    if (options.strip_index && IsIndexName(std::string_view(*out).substr(last + 1))) {
      out->resize(last + 1);
      changed = true;
    }
    if (options.strip_trailing_slash && out->size() > path_begin + 1 && out->back() == '/') {
      out->pop_back();
      changed = true;
    }
  }
}

}  // namespace

void AppendCanonicalPath(std::string_view raw, const PathOptions& options, std::string* out) {
  const size_t path_begin = out->size();
  size_t i = !raw.empty() && IsSlash(raw[0]) ? 1 : 0;
  bool ends_in_directory = false;  // the last segment was "." or ".."
  while (true) {
    const size_t segment_begin = out->size();
    out->push_back('/');
    // Normalize the segment in one pass, noting where its first ';' lands.
    size_t first_param = std::string::npos;
    while (true) {
      i += AppendNormalizedPathPiece(raw.substr(i), out);
      if (i == raw.size() || raw[i] != ';') break;
      if (first_param == std::string::npos) first_param = out->size();
      out->push_back(';');
      ++i;
    }
    const bool last = i == raw.size();
    if (first_param != std::string::npos && options.strip_params != nullptr) {
      StripSegmentParams(*options.strip_params, first_param, out);
    }
    const std::string_view segment = std::string_view(*out).substr(segment_begin + 1);
    ends_in_directory = segment == "." || segment == "..";
    if (segment == "..") {
      out->resize(segment_begin);
      PopSegment(path_begin, out);
    } else if (segment == "." || (segment.empty() && !last)) {
      out->resize(segment_begin);  // "." and empty segments vanish
    }
    if (last) break;
    ++i;  // the slash
  }
  if (ends_in_directory || out->size() == path_begin) out->push_back('/');
  if (options.strip_index || options.strip_trailing_slash) {
    ApplyOptionalRules(options, path_begin, out);
  }
}

}  // namespace pagesieve::url::internal
