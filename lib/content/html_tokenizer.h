#pragma once

// A streaming HTML tokenizer: one pass over the bytes, no allocation, no
// recursion, time linear in the input whatever it holds. It follows the
// WHATWG tokenizer where that changes what text a reader sees (comments,
// bogus comments, quoted attribute values, '<' that starts no tag) and
// skips what an extractor never needs (DOCTYPE details, attribute
// de-duplication, character references inside the tokenizer: text and
// values come out raw and are decoded by whoever keeps them).
//
// Raw-text elements (script, style, title...) are the caller's business:
// after a start tag the caller may call ReadRawText() to take everything up
// to the matching end tag, because only the tree builder knows whether the
// tag is in HTML or in foreign (SVG/MathML) content.
//
// Not thread-safe; cheap to construct. The views it returns point into the
// input and stay valid as long as the input does.

#include <cstddef>
#include <string_view>

#include "content/html_tags.h"

namespace pagesieve::content {

struct HtmlAttribute {
  std::string_view name;   // as written (not lowercased)
  std::string_view value;  // raw: character references not yet decoded
};

struct HtmlToken {
  enum class Kind { kStartTag, kEndTag, kText, kEnd };
  static constexpr size_t kMaxAttributes = 32;

  Kind kind = Kind::kEnd;
  Tag tag = Tag::kUnknown;
  std::string_view name;  // tag name as written
  std::string_view text;  // kText: raw text (character references not decoded)
  bool self_closing = false;
  // Attributes beyond kMaxAttributes are parsed and dropped.
  HtmlAttribute attributes[kMaxAttributes];
  size_t attribute_count = 0;

  // The raw value of the first attribute named `lower_name`, if present.
  bool FindAttribute(std::string_view lower_name, std::string_view* value) const;
};

class HtmlTokenizer {
 public:
  explicit HtmlTokenizer(std::string_view input) : input_(input) {}

  // The next token; Kind::kEnd once the input is consumed (and ever after).
  // Comments, DOCTYPEs and processing instructions produce no token.
  void Next(HtmlToken* token);

  // After a start tag: the raw content up to the end tag `</name` (ASCII
  // case-insensitive, followed by space, '/' or '>'), which is consumed too.
  // Without such an end tag, the content runs to the end of the input.
  std::string_view ReadRawText(std::string_view lower_name);

  // Everything left, as text (after <plaintext>).
  std::string_view ReadToEnd();

  size_t position() const { return pos_; }

 private:
  enum class TagResult { kToken, kSkipped, kLiteral };
  TagResult ReadTag(HtmlToken* token);
  // Reads a tag name at pos_ into token->name and token->tag.
  void ReadTagName(HtmlToken* token);
  // Reads attributes up to and including '>'; false at the end of input.
  bool ReadAttributes(HtmlToken* token);
  void ReadAttributeValue(HtmlAttribute* attribute);
  void SkipComment();
  void SkipBogusComment();
  void SkipSpace();

  std::string_view input_;
  size_t pos_ = 0;
};

}  // namespace pagesieve::content
