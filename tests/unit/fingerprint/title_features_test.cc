#include "fingerprint/title_features.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

namespace pagesieve::fingerprint {
namespace {

std::vector<uint64_t> FeaturesOf(std::string_view title, size_t text_features) {
  std::vector<uint64_t> features;
  AppendTitleFeatures(title, text_features, &features);
  return features;
}

size_t Shared(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::set<uint64_t> sa(a.begin(), a.end());
  return static_cast<size_t>(std::count_if(b.begin(), b.end(), [&](uint64_t f) {
    return sa.count(f) > 0;
  }));
}

TEST(TitleFeaturesTest, TheTitleIsHalfAsManyFeaturesAsTheText) {
  // 4 distinct tokens (one repeated), 300 text shingles: 38 copies each.
  std::vector<uint64_t> features = FeaturesOf("the library the council votes", 300);
  EXPECT_EQ(features.size(), 4u * 38u);
  EXPECT_EQ(std::set<uint64_t>(features.begin(), features.end()).size(), features.size());
}

TEST(TitleFeaturesTest, EveryTokenCountsOnceEvenAgainstAnEmptyText) {
  EXPECT_EQ(FeaturesOf("one two three", 0).size(), 3u);
  EXPECT_TRUE(FeaturesOf("", 300).empty());
  EXPECT_TRUE(FeaturesOf(" -- ", 300).empty());  // no tokens
}

TEST(TitleFeaturesTest, AWordChangedKeepsTheOtherWordsFeatures) {
  std::vector<uint64_t> a = FeaturesOf("council votes to keep the library open", 140);
  std::vector<uint64_t> b = FeaturesOf("council votes to close the library early", 140);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(Shared(a, b), a.size() * 5 / 7);  // 5 of 7 tokens agree
}

TEST(TitleFeaturesTest, UnspacedScriptsCountByCharacter) {
  EXPECT_EQ(FeaturesOf("\u5386\u53f2\u4e0a", 0).size(), 3u);
}

TEST(TitleFeaturesTest, CountsDistinctValuesOfASortedSequence) {
  EXPECT_EQ(CountDistinctSorted({}), 0u);
  const std::vector<uint64_t> sorted = {1, 1, 2, 5, 5, 5};
  EXPECT_EQ(CountDistinctSorted(sorted), 3u);
}

}  // namespace
}  // namespace pagesieve::fingerprint
