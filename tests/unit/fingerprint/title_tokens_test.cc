#include "fingerprint/title_tokens.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fingerprint/minhash.h"

namespace pagesieve::fingerprint {
namespace {

// Titles as the fingerprinter hands them over: normalized (case folded).
bool Agree(std::string_view a, std::string_view b) {
  return TitlesAgree(TitleTokens(a), TitleTokens(b));
}

TEST(TitleTokensTest, DistinctTokensSorted) {
  std::vector<uint32_t> tokens = TitleTokens("the library the council votes");
  EXPECT_EQ(tokens.size(), 4u);
  EXPECT_TRUE(std::is_sorted(tokens.begin(), tokens.end()));
  EXPECT_TRUE(TitleTokens("").empty());
  EXPECT_TRUE(TitleTokens(" - | ").empty());
}

TEST(TitleTokensTest, OnlyTheFirstTokensOfALongTitleAreKept) {
  std::string title;
  for (int i = 0; i < 50; ++i) title += "word" + std::to_string(i) + " ";
  EXPECT_EQ(TitleTokens(title).size(), MinHashSketch::kMaxTitleTokens);
}

TEST(TitleTokensTest, UnspacedScriptsCountByCharacter) {
  EXPECT_EQ(TitleTokens("東京の天気").size(), 5u);
}

TEST(TitlesAgreeTest, TheSameTitleAgrees) {
  EXPECT_TRUE(
      Agree("council votes to keep the library open", "council votes to keep the library open"));
}

// What a copy on another site does to a headline: the original's site name
// or subtitle on one side only.
TEST(TitlesAgreeTest, ASiteNameOrSubtitleOnOneSideAgrees) {
  EXPECT_TRUE(Agree("hermitian matrix - wikipedia", "hermitian matrix"));
  EXPECT_TRUE(Agree("obama admits us gun laws are his 'biggest frustration' - bbc news",
                    "obama admits us gun laws are his 'biggest frustration'"));
  EXPECT_TRUE(
      Agree("raspberry pi 3 - the credit card sized pc that cost only $35 - all-time "
            "bestselling computer in uk",
            "raspberry pi 3 - the credit card sized pc that cost only $35"));
}

TEST(TitlesAgreeTest, OneWordChangedInALongTitleAgrees) {
  EXPECT_TRUE(Agree("council votes to keep the library open on weekends",
                    "council votes to keep the library open on sundays"));
}

// The pages the title is there for: a site's pages that share the text the
// extractor found, told apart by their titles.
// (A long shared suffix can outweigh one differing word: "posts tagged winter |
// the courier" and "… summer | the courier" share 4 of 5 tokens and agree,
// as their title features did in the Jaccard before.)
TEST(TitlesAgreeTest, AnotherTagThreadOrSearchDisagrees) {
  EXPECT_FALSE(Agree("posts tagged winter", "posts tagged summer"));
  EXPECT_FALSE(Agree("re: boiler pressure drops overnight - forum",
                     "re: which radiator valves to buy - forum"));
  EXPECT_FALSE(Agree("posts tagged winter", "articles by anna berg"));
  EXPECT_FALSE(Agree("page not found - the courier", "search results - the courier"));
}

TEST(TitlesAgreeTest, ATitleOfOnlyTheSiteNameDoesNotAgreeWithItsPages) {
  EXPECT_FALSE(Agree("the courier", "council votes to keep the library open | the courier"));
  EXPECT_FALSE(Agree("courier", "archive: october 2026 | courier"));
}

TEST(TitlesAgreeTest, NoTitleGivesNoEvidence) {
  EXPECT_TRUE(Agree("", "posts tagged winter"));
  EXPECT_TRUE(Agree("posts tagged winter", ""));
}

TEST(TitleTokensTest, CountsDistinctValuesOfASortedSequence) {
  EXPECT_EQ(CountDistinctSorted({}), 0u);
  std::vector<uint64_t> sorted = {1, 1, 2, 5, 5, 5};
  EXPECT_EQ(CountDistinctSorted(sorted), 3u);
}

}  // namespace
}  // namespace pagesieve::fingerprint
