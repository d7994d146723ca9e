#include "fingerprint/shingles.h"

#include <gtest/gtest.h>

#include <set>

namespace pagesieve::fingerprint {
namespace {

TokenHashes TokensOf(std::string_view text) {
  TokenHashes tokens;
  AppendTokenHashes(text, &tokens);
  return tokens;
}

std::vector<uint64_t> ShinglesOf(std::string_view text, int size) {
  std::vector<uint64_t> out;
  AppendShingles(TokensOf(text).hashes, size, &out);
  return out;
}

TEST(ShinglesTest, OneShinglePerWindow) {
  EXPECT_EQ(ShinglesOf("a b c d e", 3).size(), 3u);
  EXPECT_EQ(ShinglesOf("a b c d e", 1).size(), 5u);
}

TEST(ShinglesTest, ShortTextIsOneShingleOfAllItsTokens) {
  EXPECT_EQ(ShinglesOf("breaking news", 3).size(), 1u);
  EXPECT_NE(ShinglesOf("breaking news", 3), ShinglesOf("breaking", 3));
}

TEST(ShinglesTest, EmptyTextHasNoShingles) { EXPECT_TRUE(ShinglesOf(" ... ", 3).empty()); }

TEST(ShinglesTest, SameWindowGivesSameShingleAnywhere) {
  std::vector<uint64_t> a = ShinglesOf("x y the quick fox", 3);
  std::vector<uint64_t> b = ShinglesOf("the quick fox jumps", 3);
  EXPECT_EQ(a[2], b[0]);
}

TEST(ShinglesTest, WordOrderAndTokenBoundariesMatter) {
  EXPECT_NE(ShinglesOf("a b c", 3), ShinglesOf("c b a", 3));
  EXPECT_NE(ShinglesOf("ab c d", 3), ShinglesOf("a bc d", 3));
}

TEST(ShinglesTest, PunctuationAndSpacingDoNotChangeShingles) {
  EXPECT_EQ(ShinglesOf("one, two; three", 3), ShinglesOf("one two  three", 3));
}

TEST(ShinglesTest, DistinctWindowsGiveDistinctShingles) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "w" + std::to_string(i) + " ";
  std::vector<uint64_t> shingles = ShinglesOf(text, 3);
  EXPECT_EQ(std::set<uint64_t>(shingles.begin(), shingles.end()).size(), shingles.size());
}

TEST(ShingleSizeTest, WordTextsUseTheConfiguredSize) {
  EXPECT_EQ(ShingleSizeFor(TokensOf("the quick brown fox"), 3), 3);
  EXPECT_EQ(ShingleSizeFor(TokensOf("the quick brown fox"), 5), 5);
}

TEST(ShingleSizeTest, ChineseJapaneseAndThaiUseCharacterBigrams) {
  EXPECT_EQ(ShingleSizeFor(TokensOf("今天天气很好，我们去公园散步。"), 3), 2);
  EXPECT_EQ(ShingleSizeFor(TokensOf("東京タワーに行きました"), 3), 2);
  EXPECT_EQ(ShingleSizeFor(TokensOf("ภาษาไทยเขียนติดกัน"), 3), 2);
}

TEST(ShingleSizeTest, MostlyLatinTextWithSomeHanzi) {
  EXPECT_EQ(ShingleSizeFor(TokensOf("the word 中 means middle in chinese"), 3), 3);
}

TEST(ShingleSizeTest, BigramsOfCharactersCountOnePerAdjacentPair) {
  TokenHashes tokens = TokensOf("我爱北京天安门");
  ASSERT_EQ(tokens.hashes.size(), 7u);
  std::vector<uint64_t> shingles;
  AppendShingles(tokens.hashes, ShingleSizeFor(tokens, 3), &shingles);
  EXPECT_EQ(shingles.size(), 6u);
}

}  // namespace
}  // namespace pagesieve::fingerprint
