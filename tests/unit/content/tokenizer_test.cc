#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "content/html_tokenizer.h"

namespace pagesieve::content {
namespace {

// A compact rendering of the token stream: <tag a=v>, </tag>, "text".
std::vector<std::string> Tokens(std::string_view html) {
  HtmlTokenizer tokenizer(html);
  HtmlToken token;
  std::vector<std::string> out;
  for (tokenizer.Next(&token); token.kind != HtmlToken::Kind::kEnd; tokenizer.Next(&token)) {
    if (token.kind == HtmlToken::Kind::kText) {
      out.push_back("\"" + std::string(token.text) + "\"");
      continue;
    }
    std::string s = token.kind == HtmlToken::Kind::kStartTag ? "<" : "</";
    s += std::string(token.name);
    for (size_t i = 0; i < token.attribute_count; ++i) {
      s += " " + std::string(token.attributes[i].name) + "=" +
           std::string(token.attributes[i].value);
    }
    if (token.self_closing) s += "/";
    out.push_back(s + ">");
  }
  return out;
}

using Strings = std::vector<std::string>;

TEST(HtmlTokenizerTest, TagsAndTextAlternate) {
  EXPECT_EQ(Tokens("<p>Hello <b>world</b></p>"),
            (Strings{"<p>", "\"Hello \"", "<b>", "\"world\"", "</b>", "</p>"}));
}

TEST(HtmlTokenizerTest, AttributeValuesInEveryQuotingStyle) {
  EXPECT_EQ(Tokens("<a href=\"x y\" class='c' id=z checked data-x = 1>"),
            (Strings{"<a href=x y class=c id=z checked= data-x=1>"}));
}

TEST(HtmlTokenizerTest, GreaterThanInsideQuotedValueDoesNotEndTheTag) {
  EXPECT_EQ(Tokens("<a title=\"a>b\">t</a>"), (Strings{"<a title=a>b>", "\"t\"", "</a>"}));
}

TEST(HtmlTokenizerTest, TagNamesAreRecognisedInAnyCase) {
  HtmlTokenizer tokenizer("<DiV>");
  HtmlToken token;
  tokenizer.Next(&token);
  EXPECT_EQ(token.tag, Tag::kDiv);
}

TEST(HtmlTokenizerTest, SelfClosingFlagIsReported) {
  EXPECT_EQ(Tokens("<br/><img src=a />"), (Strings{"<br/>", "<img src=a/>"}));
}

TEST(HtmlTokenizerTest, CommentsDoctypesAndProcessingInstructionsVanish) {
  EXPECT_EQ(Tokens("<!DOCTYPE html><?xml x?>a<!-- <p>hidden</p> -->b<!-->c<!--->d"),
            (Strings{"\"a\"", "\"b\"", "\"c\"", "\"d\""}));
}

TEST(HtmlTokenizerTest, UnterminatedCommentSwallowsTheRest) {
  EXPECT_EQ(Tokens("a<!-- <p>never closed"), (Strings{"\"a\""}));
}

TEST(HtmlTokenizerTest, LessThanThatStartsNoTagIsText) {
  EXPECT_EQ(Tokens("1 < 2 <3 <"), (Strings{"\"1 \"", "\"< 2 \"", "\"<3 \"", "\"<\""}));
}

TEST(HtmlTokenizerTest, BogusEndTagsVanish) {
  EXPECT_EQ(Tokens("a</>b</ x>c"), (Strings{"\"a\"", "\"b\"", "\"c\""}));
}

TEST(HtmlTokenizerTest, TagCutOffByEndOfInputIsDropped) {
  EXPECT_EQ(Tokens("text<div class=\"never closed"), (Strings{"\"text\""}));
  EXPECT_EQ(Tokens("text<div"), (Strings{"\"text\""}));
}

TEST(HtmlTokenizerTest, ExtraAttributesAreDroppedNotOverflowed) {
  std::string html = "<div";
  for (int i = 0; i < 100; ++i) html += " a" + std::to_string(i) + "=v";
  html += ">x";
  HtmlTokenizer tokenizer(html);
  HtmlToken token;
  tokenizer.Next(&token);
  EXPECT_EQ(token.kind, HtmlToken::Kind::kStartTag);
  EXPECT_EQ(token.attribute_count, HtmlToken::kMaxAttributes);
  tokenizer.Next(&token);
  EXPECT_EQ(token.text, "x");
}

TEST(HtmlTokenizerTest, RawTextRunsToTheMatchingEndTagOnly) {
  HtmlTokenizer tokenizer("<script>if (a</b) x='</scripty>';</SCRIPT >after");
  HtmlToken token;
  tokenizer.Next(&token);
  ASSERT_EQ(token.tag, Tag::kScript);
  EXPECT_EQ(tokenizer.ReadRawText("script"), "if (a</b) x='</scripty>';");
  tokenizer.Next(&token);
  EXPECT_EQ(token.text, "after");
}

TEST(HtmlTokenizerTest, UnterminatedRawTextRunsToTheEnd) {
  HtmlTokenizer tokenizer("<style>a{}</sty");
  HtmlToken token;
  tokenizer.Next(&token);
  EXPECT_EQ(tokenizer.ReadRawText("style"), "a{}</sty");
  tokenizer.Next(&token);
  EXPECT_EQ(token.kind, HtmlToken::Kind::kEnd);
}

TEST(HtmlTokenizerTest, FindAttributeIgnoresCase) {
  HtmlTokenizer tokenizer("<meta PROPERTY=og:title Content=x>");
  HtmlToken token;
  tokenizer.Next(&token);
  std::string_view value;
  ASSERT_TRUE(token.FindAttribute("property", &value));
  EXPECT_EQ(value, "og:title");
  EXPECT_FALSE(token.FindAttribute("name", &value));
}

TEST(HtmlTokenizerTest, EveryByteIsConsumedOnceOnPathologicalInput) {
  // Many unclosed constructs: each must be consumed in one forward pass.
  const std::string html =
      std::string(50000, '<') + std::string(50000, '"') + "<a b='" + std::string(50000, 'x');
  HtmlTokenizer tokenizer(html);
  HtmlToken token;
  size_t tokens = 0;
  size_t last = 0;
  for (tokenizer.Next(&token); token.kind != HtmlToken::Kind::kEnd; tokenizer.Next(&token)) {
    ASSERT_GT(tokenizer.position(), last);
    last = tokenizer.position();
    ++tokens;
  }
  EXPECT_LE(tokens, html.size());
  EXPECT_EQ(tokenizer.position(), html.size());
}

}  // namespace
}  // namespace pagesieve::content
