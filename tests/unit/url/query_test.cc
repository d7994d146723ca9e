// Query rules.

#include <gtest/gtest.h>

#include "test_util.h"

namespace pagesieve::url {
namespace {

using ::pagesieve::url::testing::Canon;

std::string Query(std::string_view query, CanonicalizerOptions options = {}) {
  const std::string spec = Canon("http://h/" + std::string(query), std::move(options));
  return spec.rfind("http://h/", 0) == 0 ? spec.substr(9) : spec;
}

CanonicalizerOptions Unsorted() {
  CanonicalizerOptions options;
  options.sort_query = false;
  return options;
}

TEST(QueryTest, DropsAnEmptyQuery) {
  EXPECT_EQ(Query("?"), "");
  EXPECT_EQ(Query("?#x"), "");
  EXPECT_EQ(Query("?&&&"), "");
}

TEST(QueryTest, DropsEmptyPairs) { EXPECT_EQ(Query("?&a=1&&b=2&", Unsorted()), "?a=1&b=2"); }

TEST(QueryTest, KeepsPairsWithEmptyNamesOrValues) {
  EXPECT_EQ(Query("?=&a=&=b", Unsorted()), "?=&a=&=b");
}

TEST(QueryTest, APairWithoutEqualsKeepsHavingNone) {
  EXPECT_EQ(Query("?a&b=", Unsorted()), "?a&b=");
}

TEST(QueryTest, SortsPairsByNameThenValue) {
  EXPECT_EQ(Query("?c=3&b=5&b=2&a=50"), "?a=50&b=2&b=5&c=3");
}

TEST(QueryTest, SortsByNameBeforeValue) {
  // Comparing whole pairs would put "a-b=2" first, as '-' < '='.
  EXPECT_EQ(Query("?a-b=2&a=1"), "?a=1&a-b=2");
}

TEST(QueryTest, SortsAPairWithoutEqualsBeforeAnEmptyValue) {
  EXPECT_EQ(Query("?a=&a&a=0"), "?a&a=&a=0");
}

TEST(QueryTest, SortsNormalizedBytes) {
  // %41 is 'A' once decoded, and 'A' < 'B' < 'a'.
  EXPECT_EQ(Query("?a=1&B=2&%41=3"), "?A=3&B=2&a=1");
}

TEST(QueryTest, KeepsDuplicatePairs) { EXPECT_EQ(Query("?a=1&a=1"), "?a=1&a=1"); }

TEST(QueryTest, KeepsTheOrderWhenSortingIsOff) {
  EXPECT_EQ(Query("?b=1&a=2", Unsorted()), "?b=1&a=2");
}

TEST(QueryTest, DropsDenylistedParameters) {
  EXPECT_EQ(Query("?utm_source=x&a=1&UTM_Medium=y&fbclid=z&gclid&_ga=1"), "?a=1");
  EXPECT_EQ(Query("?aspsessionidQQ=1&jsessionid=2&phpsessid=3&sessionid=4&b=2"), "?b=2");
}

TEST(QueryTest, MatchesTheDenylistOnTheDecodedName) {
  EXPECT_EQ(Query("?utm%5Fsource=x&a=1"), "?a=1");
  EXPECT_EQ(Query("?%75tm_source=x&a=1"), "?a=1");
}

TEST(QueryTest, MatchesOnlyTheWholeName) {
  EXPECT_EQ(Query("?xgclid=1&gclidx=2&utm=3"), "?gclidx=2&utm=3&xgclid=1");
}

TEST(QueryTest, DropsTheQueryWhenOnlyDenylistedParametersRemain) {
  EXPECT_EQ(Query("?utm_source=a&utm_medium=b"), "");
}

TEST(QueryTest, KeepsAmpersandEqualsAndPlusAsTheyAre) {
  EXPECT_EQ(Query("?q=a+b&r=c%20d&s=%2B&t=%26&u=%3D"), "?q=a+b&r=c%20d&s=%2B&t=%26&u=%3D");
  EXPECT_EQ(Query("?a=b=c"), "?a=b=c");
}

TEST(QueryTest, NormalizesPercentEncodingLikeThePath) {
  EXPECT_EQ(Query("?q=%7e%2f%c3%a9 é\"|%"), "?q=~%2F%C3%A9%20%C3%A9%22%7C%25");
}

TEST(QueryTest, KeepsSlashesQuestionMarksAndSemicolons) {
  EXPECT_EQ(Query("?u=http://x//y?z;w"), "?u=http://x//y?z;w");
}

TEST(QueryTest, SortsManyPairs) {
  // More than fit in the inline pair list.
  std::string query = "?";
  for (int i = 199; i >= 0; --i) query += "p" + std::to_string(1000 + i) + "=1&";
  std::string expected = "?";
  for (int i = 0; i < 200; ++i) expected += "p" + std::to_string(1000 + i) + "=1&";
  expected.pop_back();
  EXPECT_EQ(Query(query), expected);
}

TEST(QueryTest, SortsALongQuery) {
  // Longer than the on-stack scratch buffer.
  const std::string long_value(3000, 'v');
  EXPECT_EQ(Query("?b=" + long_value + "&a=1"), "?a=1&b=" + long_value);
}

}  // namespace
}  // namespace pagesieve::url
