#include "content/html_tokenizer.h"

#include <cstring>

#include "content/media_type.h"

namespace pagesieve::content {
namespace {

bool IsAsciiAlpha(char c) { return static_cast<unsigned char>((c | 0x20) - 'a') < 26; }

// The index of the first `c` at or after `from`, or s.size().
size_t Find(std::string_view s, char c, size_t from) {
  if (from >= s.size()) return s.size();
  const void* hit = std::memchr(s.data() + from, c, s.size() - from);
  return hit ? static_cast<size_t>(static_cast<const char*>(hit) - s.data()) : s.size();
}

}  // namespace

bool HtmlToken::FindAttribute(std::string_view lower_name, std::string_view* value) const {
  for (size_t i = 0; i < attribute_count; ++i) {
    if (EqualsIgnoreCase(attributes[i].name, lower_name)) {
      *value = attributes[i].value;
      return true;
    }
  }
  return false;
}

void HtmlTokenizer::Next(HtmlToken* token) {
  const size_t n = input_.size();
  while (pos_ < n) {
    if (input_[pos_] == '<') {
      const TagResult result = ReadTag(token);
      if (result == TagResult::kToken) return;
      if (result == TagResult::kSkipped) continue;
    }
    // Text up to the next '<' (a '<' that starts no tag is text too).
    const size_t end = Find(input_, '<', pos_ + 1);
    token->kind = HtmlToken::Kind::kText;
    token->text = input_.substr(pos_, end - pos_);
    pos_ = end;
    return;
  }
  token->kind = HtmlToken::Kind::kEnd;
}

HtmlTokenizer::TagResult HtmlTokenizer::ReadTag(HtmlToken* token) {
  const size_t n = input_.size();
  if (pos_ + 1 >= n) return TagResult::kLiteral;
  const char c = input_[pos_ + 1];
  if (IsAsciiAlpha(c)) {
    pos_ += 1;
    token->kind = HtmlToken::Kind::kStartTag;
    ReadTagName(token);
    // A tag cut off by the end of the input is dropped, as browsers do.
    return ReadAttributes(token) ? TagResult::kToken : TagResult::kSkipped;
  }
  if (c == '/') {
    if (pos_ + 2 >= n) return TagResult::kLiteral;
    if (IsAsciiAlpha(input_[pos_ + 2])) {
      pos_ += 2;
      token->kind = HtmlToken::Kind::kEndTag;
      ReadTagName(token);
      return ReadAttributes(token) ? TagResult::kToken : TagResult::kSkipped;
    }
    SkipBogusComment();  // "</>" and "</ junk>" vanish
    return TagResult::kSkipped;
  }
  if (c == '!') {
    if (input_.compare(pos_, 4, "<!--") == 0) {
      SkipComment();
    } else {
      SkipBogusComment();  // DOCTYPE, CDATA sections in HTML
    }
    return TagResult::kSkipped;
  }
  if (c == '?') {
    SkipBogusComment();
    return TagResult::kSkipped;
  }
  return TagResult::kLiteral;
}

void HtmlTokenizer::ReadTagName(HtmlToken* token) {
  const size_t start = pos_;
  const size_t n = input_.size();
  while (pos_ < n && !IsAsciiSpace(input_[pos_]) && input_[pos_] != '/' && input_[pos_] != '>') {
    ++pos_;
  }
  token->name = input_.substr(start, pos_ - start);
  token->tag = LookupTag(token->name);
  token->self_closing = false;
  token->attribute_count = 0;
}

void HtmlTokenizer::SkipSpace() {
  while (pos_ < input_.size() && IsAsciiSpace(input_[pos_])) ++pos_;
}

bool HtmlTokenizer::ReadAttributes(HtmlToken* token) {
  const size_t n = input_.size();
  while (true) {
    SkipSpace();
    if (pos_ >= n) return false;
    const char c = input_[pos_];
    if (c == '>') {
      ++pos_;
      return true;
    }
    if (c == '/') {
      ++pos_;
      if (pos_ < n && input_[pos_] == '>') token->self_closing = true;
      continue;
    }
    // A name runs to space, '/', '>' or '='; a leading '=' belongs to it.
    const size_t start = pos_++;
    while (pos_ < n && !IsAsciiSpace(input_[pos_]) && input_[pos_] != '/' && input_[pos_] != '>' &&
           input_[pos_] != '=') {
      ++pos_;
    }
    HtmlAttribute attribute{input_.substr(start, pos_ - start), {}};
    SkipSpace();
    if (pos_ < n && input_[pos_] == '=') {
      ++pos_;
      SkipSpace();
      ReadAttributeValue(&attribute);
    }
    if (token->attribute_count < HtmlToken::kMaxAttributes) {
      token->attributes[token->attribute_count++] = attribute;
    }
  }
}

void HtmlTokenizer::ReadAttributeValue(HtmlAttribute* attribute) {
  const size_t n = input_.size();
  if (pos_ >= n) return;
  const char quote = input_[pos_];
  if (quote == '"' || quote == '\'') {
    const size_t end = Find(input_, quote, pos_ + 1);
    attribute->value = input_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end < n ? end + 1 : n;
    return;
  }
  const size_t start = pos_;
  while (pos_ < n && !IsAsciiSpace(input_[pos_]) && input_[pos_] != '>') ++pos_;
  attribute->value = input_.substr(start, pos_ - start);
}

void HtmlTokenizer::SkipComment() {
  pos_ += 4;  // "<!--"
  // "<!-->" and "<!--->" are complete (empty) comments.
  if (input_.compare(pos_, 1, ">") == 0) {
    pos_ += 1;
    return;
  }
  if (input_.compare(pos_, 2, "->") == 0) {
    pos_ += 2;
    return;
  }
  const size_t end = input_.find("-->", pos_);
  pos_ = end == std::string_view::npos ? input_.size() : end + 3;
}

void HtmlTokenizer::SkipBogusComment() {
  const size_t end = Find(input_, '>', pos_ + 1);
  pos_ = end < input_.size() ? end + 1 : input_.size();
}

std::string_view HtmlTokenizer::ReadRawText(std::string_view lower_name) {
  const size_t n = input_.size();
  const size_t start = pos_;
  size_t p = pos_;
  while (true) {
    const size_t lt = Find(input_, '<', p);
    if (lt >= n) break;
    const size_t after = lt + 2 + lower_name.size();
    if (lt + 1 < n && input_[lt + 1] == '/' &&
        StartsWithIgnoreCase(input_.substr(lt + 2), lower_name) &&
        (after >= n || IsAsciiSpace(input_[after]) || input_[after] == '/' ||
         input_[after] == '>')) {
      const size_t gt = Find(input_, '>', after);
      pos_ = gt < n ? gt + 1 : n;
      return input_.substr(start, lt - start);
    }
    p = lt + 1;
  }
  pos_ = n;
  return input_.substr(start);
}

std::string_view HtmlTokenizer::ReadToEnd() {
  const std::string_view rest = input_.substr(pos_);
  pos_ = input_.size();
  return rest;
}

}  // namespace pagesieve::content
