#include "content/title.h"

#include <array>

namespace pagesieve::content {
namespace {

constexpr std::array<std::string_view, 9> kSeparators = {
    " | ",        " - ", " \xE2\x80\x93 ", " \xE2\x80\x94 ", " :: ", " \xC2\xBB ", " / ",
    " \xC2\xB7 ", " : "};

size_t WordCount(std::string_view s) {
  size_t words = 0;
  bool in_word = false;
  for (char c : s) {
    const bool space = c == ' ';
    if (!space && !in_word) ++words;
    in_word = !space;
  }
  return words;
}

}  // namespace

std::string StripSiteName(std::string_view title) {
  size_t last = std::string_view::npos;
  size_t first = std::string_view::npos, first_len = 0;
  for (std::string_view sep : kSeparators) {
    const size_t at = title.rfind(sep);
    if (at != std::string_view::npos && (last == std::string_view::npos || at > last)) {
      last = at;
    }
    const size_t at_first = title.find(sep);
    if (at_first != std::string_view::npos && at_first < first) {
      first = at_first;
      first_len = sep.size();
    }
  }
  if (last == std::string_view::npos) return std::string(title);
  // "Article title | Site": the part before the last separator.
  const std::string_view before = title.substr(0, last);
  if (WordCount(before) >= 3) return std::string(before);
  // "Site | Article title": the part after the first separator.
  const std::string_view after = title.substr(first + first_len);
  if (WordCount(after) >= 3) return std::string(after);
  return std::string(title);
}

std::string ChooseTitle(const Document& doc, std::string_view first_h1) {
  if (!doc.og_title.empty()) return doc.og_title;
  if (!doc.title.empty()) return StripSiteName(doc.title);
  return std::string(first_h1);
}

}  // namespace pagesieve::content
