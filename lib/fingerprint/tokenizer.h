#pragma once

#include <cstdint>
#include <string_view>

namespace pagesieve::fingerprint {

// One token of normalized text.
struct Token {
  std::string_view text;
  // A single character (with its combining marks) of a script written
  // without spaces between words: Han, Hiragana, Katakana, Bopomofo, Thai,
  // Lao, Khmer, Myanmar. Such text is shingled as character bigrams.
  bool unspaced = false;
};

// Splits text into tokens: runs of letters, digits and combining marks
// (Unicode categories L, N, M) form words; every other character separates
// them; each character of an unspaced script is a token of its own, so a
// Chinese sentence becomes one token per character. Invalid UTF-8 bytes
// separate tokens like punctuation does.
//
// Meant for the output of content::NormalizeForHashing (already case-folded),
// but total over any bytes. A cheap value type over the caller's text.
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text) : text_(text) {}

  // The next token, or false at the end of the text.
  bool Next(Token* token);

 private:
  void SkipSeparators();

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace pagesieve::fingerprint
