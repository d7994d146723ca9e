#include "fingerprint/tokenizer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pagesieve::fingerprint {
namespace {

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> out;
  Tokenizer tokenizer(text);
  Token token;
  while (tokenizer.Next(&token)) out.emplace_back(token.text);
  return out;
}

using Tokens = std::vector<std::string>;

TEST(TokenizerTest, SplitsOnSpacesAndPunctuation) {
  EXPECT_EQ(Words("hello, world! it's 2024-05-01."),
            (Tokens{"hello", "world", "it", "s", "2024", "05", "01"}));
}

TEST(TokenizerTest, EmptyAndPunctuationOnlyTextHaveNoTokens) {
  EXPECT_TRUE(Words("").empty());
  EXPECT_TRUE(Words(" \n\t.,;:!?()[]{}—–…«»").empty());
}

TEST(TokenizerTest, KeepsAccentedAndNonLatinWordsWhole) {
  EXPECT_EQ(Words("café straße ελληνικά русский"),
            (Tokens{"café", "straße", "ελληνικά", "русский"}));
}

TEST(TokenizerTest, CombiningMarksStayInTheirWord) {
  // "cafe" + U+0301 COMBINING ACUTE ACCENT, and Devanagari with vowel signs.
  EXPECT_EQ(Words("cafe\u0301 au lait"), (Tokens{"cafe\u0301", "au", "lait"}));
  EXPECT_EQ(Words("हिन्दी भाषा"), (Tokens{"हिन्दी", "भाषा"}));
}

TEST(TokenizerTest, KoreanIsWrittenWithSpacesSoKeepsWords) {
  EXPECT_EQ(Words("한국어 문장"), (Tokens{"한국어", "문장"}));
}

TEST(TokenizerTest, ChineseIsOneTokenPerCharacter) {
  EXPECT_EQ(Words("我爱北京。"), (Tokens{"我", "爱", "北", "京"}));
  Tokenizer tokenizer("北京");
  Token token;
  ASSERT_TRUE(tokenizer.Next(&token));
  EXPECT_TRUE(token.unspaced);
}

TEST(TokenizerTest, JapaneseKanaAndKanjiAreCharactersAndLatinWordsStayWords) {
  EXPECT_EQ(Words("iPhoneを発売"), (Tokens{"iPhone", "を", "発", "売"}));
  EXPECT_EQ(Words("2024年"), (Tokens{"2024", "年"}));
  EXPECT_EQ(Words("年2024"), (Tokens{"年", "2024"}));
}

TEST(TokenizerTest, ThaiCombiningVowelsAttachToTheirConsonant) {
  // กิน = ก + ◌ิ (U+0E34, a combining vowel) + น: two characters, not three.
  EXPECT_EQ(Words("กิน"), (Tokens{"กิ", "น"}));
}

TEST(TokenizerTest, InvalidUtf8SeparatesLikePunctuation) {
  const std::string invalid = std::string("abc\xff\xfe") + "def\xc3";
  EXPECT_EQ(Words(invalid), (Tokens{"abc", "def"}));
  EXPECT_EQ(Words("\xe4\xb8"), Tokens{});  // a truncated 3-byte sequence
}

TEST(TokenizerTest, NulAndControlBytesSeparate) {
  const std::string controls = std::string("a") + '\0' + "b\x01" + "c";
  EXPECT_EQ(Words(controls), (Tokens{"a", "b", "c"}));
}

TEST(TokenizerTest, LongRunOfOneLetterIsOneToken) {
  std::string long_word(1 << 20, 'x');
  Tokens tokens = Words(long_word);
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].size(), long_word.size());
}

}  // namespace
}  // namespace pagesieve::fingerprint
