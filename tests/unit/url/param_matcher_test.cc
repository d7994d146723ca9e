#include "url/param_matcher.h"

#include <gtest/gtest.h>

#include <string>

namespace pagesieve::url {
namespace {

TEST(GlobTest, ExactPatternsMatchOnlyTheWholeName) {
  EXPECT_TRUE(GlobMatches("gclid", "gclid"));
  EXPECT_FALSE(GlobMatches("gclid", "gclid2"));
  EXPECT_FALSE(GlobMatches("gclid", "gcli"));
  EXPECT_FALSE(GlobMatches("gclid", ""));
}

TEST(GlobTest, StarMatchesAnyRunIncludingNone) {
  EXPECT_TRUE(GlobMatches("utm_*", "utm_"));
  EXPECT_TRUE(GlobMatches("utm_*", "utm_source"));
  EXPECT_FALSE(GlobMatches("utm_*", "utm"));
  EXPECT_TRUE(GlobMatches("*id", "sessid"));
  EXPECT_TRUE(GlobMatches("a*b*c", "a__b__c"));
  EXPECT_FALSE(GlobMatches("a*b*c", "a__c__b"));
  EXPECT_TRUE(GlobMatches("*", ""));
  EXPECT_TRUE(GlobMatches("**", "x"));
}

TEST(GlobTest, QuestionMarkMatchesOneByte) {
  EXPECT_TRUE(GlobMatches("a?c", "abc"));
  EXPECT_FALSE(GlobMatches("a?c", "ac"));
  EXPECT_FALSE(GlobMatches("a?c", "abbc"));
}

TEST(GlobTest, IgnoresCaseOfTheName) {
  EXPECT_TRUE(GlobMatches("utm_*", "UTM_Source"));
  EXPECT_TRUE(GlobMatches("aspsessionid*", "ASPSESSIONIDQQGGGNCU"));
}

TEST(GlobTest, BacktracksWithoutBlowingUp) {
  // Exponential for naive recursive matching (this would not finish); the
  // last-star backtracking is O(|pattern| * |name|).
  const std::string name(20000, 'a');
  EXPECT_FALSE(GlobMatches("*a*a*a*a*a*a*a*a*a*a*b", name));
  EXPECT_TRUE(GlobMatches("*a*a*a*a*a*a*a*a*a*a*", name));
}

TEST(ParamMatcherTest, MatchesAnyPatternOfTheList) {
  const ParamMatcher matcher({"utm_*", "gclid", "*_hash", "x?"});
  EXPECT_TRUE(matcher.Matches("utm_campaign"));
  EXPECT_TRUE(matcher.Matches("GCLID"));
  EXPECT_TRUE(matcher.Matches("page_hash"));
  EXPECT_TRUE(matcher.Matches("xy"));
  EXPECT_FALSE(matcher.Matches("page"));
  EXPECT_FALSE(matcher.Matches("x"));
  EXPECT_FALSE(matcher.Matches(""));
}

TEST(ParamMatcherTest, PatternsAreCaseInsensitiveToo) {
  const ParamMatcher matcher({"UTM_*", "FbClId"});
  EXPECT_TRUE(matcher.Matches("utm_source"));
  EXPECT_TRUE(matcher.Matches("fbclid"));
}

TEST(ParamMatcherTest, AnEmptyListMatchesNothing) {
  const ParamMatcher matcher({});
  EXPECT_FALSE(matcher.Matches("utm_source"));
  EXPECT_FALSE(matcher.Matches(""));
}

TEST(ParamMatcherTest, NamesStartingWithNonAsciiBytesAreMatchedByWildcards) {
  const ParamMatcher matcher({"*x"});
  EXPECT_TRUE(matcher.Matches("\xffx"));
  EXPECT_FALSE(ParamMatcher({"x"}).Matches("\xffx"));
}

}  // namespace
}  // namespace pagesieve::url
