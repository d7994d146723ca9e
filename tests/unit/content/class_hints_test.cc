#include "content/class_hints.h"

#include <gtest/gtest.h>

namespace pagesieve::content {
namespace {

bool Boilerplate(std::string_view value) {
  return (ClassifyClassValue(value).hints & kHintBoilerplate) != 0;
}

TEST(ClassHintsTest, WordsAreSplitAtPunctuationAndCaseChanges) {
  EXPECT_TRUE(Boilerplate("site-footer"));
  EXPECT_TRUE(Boilerplate("mainNav"));
  EXPECT_TRUE(Boilerplate("share_buttons"));
  EXPECT_TRUE(Boilerplate("ad300x250"));
  EXPECT_FALSE(Boilerplate("heading download shadow leader"));
}

TEST(ClassHintsTest, CompoundsOfKnownWordsAreRecognised) {
  EXPECT_TRUE(Boilerplate("topnav"));
  EXPECT_TRUE(Boilerplate("sharebuttons"));
  EXPECT_TRUE(Boilerplate("pagefooter"));
  EXPECT_FALSE(Boilerplate("canvas"));
  EXPECT_FALSE(Boilerplate("unavailable"));
}

TEST(ClassHintsTest, WeightsFollowPositiveAndNegativeWords) {
  EXPECT_EQ(ClassifyClassValue("article-body").weight, 25);
  EXPECT_EQ(ClassifyClassValue("sidebar").weight, -25);
  EXPECT_EQ(ClassifyClassValue("post sidebar").weight, 0);
  EXPECT_EQ(ClassifyClassValue("x y z").weight, 0);
}

TEST(ClassHintsTest, ContentWordsProtect) {
  EXPECT_NE(ClassifyClassValue("content-with-sidebar").hints & kHintProtect, 0);
  EXPECT_EQ(ClassifyClassValue("sidebar").hints & kHintProtect, 0);
}

TEST(ClassHintsTest, CommentSectionsAreMarked) {
  EXPECT_NE(ClassifyClassValue("comments").hints & kHintComments, 0);
  EXPECT_EQ(ClassifyClassValue("comment-body").hints & kHintComments, 0);
}

TEST(ClassHintsTest, CacheAnswersLikeTheFunction) {
  ClassVerdictCache cache;
  const char* values[] = {"site-footer",
                          "article-body",
                          "x",
                          "",
                          "mainNav",
                          "site-footer",
                          "a very long class value that is not cached because it is long "
                          "enough to pass the limit of the cache for sure, sidebar included "
                          "somewhere in the middle of it all"};
  for (int round = 0; round < 3; ++round) {
    for (const char* v : values) {
      EXPECT_EQ(cache.Classify(v).hints, ClassifyClassValue(v).hints) << v;
      EXPECT_EQ(cache.Classify(v).weight, ClassifyClassValue(v).weight) << v;
    }
  }
}

}  // namespace
}  // namespace pagesieve::content
