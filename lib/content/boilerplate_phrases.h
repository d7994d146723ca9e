#pragma once

// The phrase table behind ClassifyBlockText (boilerplate_text.h). Internal.

#include <cstdint>
#include <span>
#include <string_view>

#include "content/boilerplate_text.h"

namespace pagesieve::content {

// One phrase: word slots separated by ' ', alternatives by '|'; a slot
// starting with '?' is optional; '#' matches a number ("12", "1.2k").
// Words are compared after lowercasing (ASCII and Latin-1 letters), and
// split at anything but letters and digits ("don't" is "don t").
// Phrase::extra_words of a phrase any number of words may follow.
inline constexpr uint8_t kAnyWords = 255;

struct Phrase {
  std::string_view words;
  TextRole role;
  uint8_t extra_words;  // how many words may follow the phrase
  uint16_t max_bytes;   // the longest block the phrase is boilerplate in
  bool colon = false;   // the phrase must be followed by ':' ("Foto: ...")
  // When not empty, some word of the block must be one of these
  // ('|'-separated): "Follow ..." is boilerplate only when it names a
  // social network, not in "Follow the steps below".
  std::string_view needs = {};
};

std::span<const Phrase> BoilerplatePhrases();

// Words a share bar is made of ("Share 1.2k Tweet Email"); `verb` is set
// for the words that make a bar a share bar (share, tweet, teilen...).
bool IsShareBarWord(std::string_view word, bool* verb);
std::span<const std::string_view> ShareBarWords();

}  // namespace pagesieve::content
