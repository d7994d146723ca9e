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

char FoldAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

// Whether `a` and `b` are the same words but for ASCII case (both are
// whitespace-collapsed already).
bool SameWords(std::string_view a, std::string_view b) {
  if (a.empty() || a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (FoldAscii(a[i]) != FoldAscii(b[i])) return false;
  }
  return true;
}

}  // namespace

std::string StripSiteName(std::string_view title, std::string_view headline) {
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
  // "Site | Article title": the part after the first separator.
  const std::string_view after = title.substr(first + first_len);
  // A part the page's headline repeats is the title, however short
  // ("Document | Wikimedia Foundation, Inc." under <h1>Document</h1>).
  if (SameWords(before, headline)) return std::string(before);
  if (SameWords(after, headline)) return std::string(after);
  if (WordCount(before) >= 3) return std::string(before);
  if (WordCount(after) >= 3) return std::string(after);
  return std::string(title);
}

std::string ChooseTitle(const Document& doc, std::string_view first_h1) {
  if (!doc.og_title.empty()) return doc.og_title;
  if (!doc.title.empty()) return StripSiteName(doc.title, first_h1);
  return std::string(first_h1);
}

}  // namespace pagesieve::content
