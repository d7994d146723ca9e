#include "fingerprint/tokenizer.h"

#include <utf8proc.h>

namespace pagesieve::fingerprint {
namespace {

enum class CharClass : uint8_t {
  kSeparator,  // punctuation, symbols, spaces, controls, invalid bytes
  kWord,       // a letter or digit of a script written with spaces
  kUnspaced,   // a letter or digit of a script written without spaces
  kMark,       // a combining mark or joiner: continues the current token
};

bool IsUnspacedScript(int32_t cp) {
  return (cp >= 0x0E00 && cp <= 0x0EFF) ||  // Thai, Lao
         (cp >= 0x1000 && cp <= 0x109F) ||  // Myanmar
         (cp >= 0x1780 && cp <= 0x17FF) ||  // Khmer
         (cp >= 0x19E0 && cp <= 0x19FF) ||  // Khmer symbols
         (cp >= 0x3000 && cp <= 0x30FF) ||  // CJK symbols (々 〆 〇), Hiragana, Katakana
         (cp >= 0x3100 && cp <= 0x31FF) ||  // Bopomofo, Katakana extensions
         (cp >= 0x3400 && cp <= 0x4DBF) ||  // CJK extension A
         (cp >= 0x4E00 && cp <= 0x9FFF) ||  // CJK unified ideographs
         (cp >= 0xF900 && cp <= 0xFAFF) ||  // CJK compatibility ideographs
         (cp >= 0xFF66 && cp <= 0xFF9F) ||  // half-width Katakana
         (cp >= 0x20000 && cp <= 0x3FFFF);  // CJK extensions B and later
}

CharClass ClassifyNonAscii(int32_t cp) {
  // Zero-width (non-)joiners sit inside words in Persian and Indic scripts.
  if (cp == 0x200C || cp == 0x200D) return CharClass::kMark;
  switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME:
      return CharClass::kMark;
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      return IsUnspacedScript(cp) ? CharClass::kUnspaced : CharClass::kWord;
    default:
      return CharClass::kSeparator;
  }
}

bool IsAsciiAlnum(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z');
}

// The class of the character at `pos` and its length in bytes (1 for an
// invalid byte, which separates).
CharClass ClassifyAt(std::string_view text, size_t pos, size_t* length) {
  unsigned char c = static_cast<unsigned char>(text[pos]);
  if (c < 0x80) {
    *length = 1;
    return IsAsciiAlnum(c) ? CharClass::kWord : CharClass::kSeparator;
  }
  utf8proc_int32_t cp = 0;
  utf8proc_ssize_t n =
      utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(text.data() + pos),
                       static_cast<utf8proc_ssize_t>(text.size() - pos), &cp);
  if (n <= 0) {
    *length = 1;
    return CharClass::kSeparator;
  }
  *length = static_cast<size_t>(n);
  return ClassifyNonAscii(cp);
}

}  // namespace

// ASCII takes a shortcut in both loops below: it is most of the text of most
// pages, and its classes need no decoding.
void Tokenizer::SkipSeparators() {
  while (pos_ < text_.size()) {
    unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c < 0x80) {
      if (IsAsciiAlnum(c)) return;
      ++pos_;
      continue;
    }
    size_t length = 0;
    if (ClassifyAt(text_, pos_, &length) != CharClass::kSeparator) return;
    pos_ += length;
  }
}

bool Tokenizer::Next(Token* token) {
  SkipSeparators();
  if (pos_ >= text_.size()) return false;
  const size_t start = pos_;
  size_t length = 0;
  const bool unspaced = ClassifyAt(text_, pos_, &length) == CharClass::kUnspaced;
  pos_ += length;
  // A token ends before a separator, before any unspaced character, and
  // before a word character that follows an unspaced character.
  while (pos_ < text_.size()) {
    unsigned char c = static_cast<unsigned char>(text_[pos_]);
    if (c < 0x80) {
      if (unspaced || !IsAsciiAlnum(c)) break;
      ++pos_;
      continue;
    }
    CharClass cls = ClassifyAt(text_, pos_, &length);
    if (cls != CharClass::kMark && (cls != CharClass::kWord || unspaced)) break;
    pos_ += length;
  }
  token->text = text_.substr(start, pos_ - start);
  token->unspaced = unspaced;
  return true;
}

}  // namespace pagesieve::fingerprint
