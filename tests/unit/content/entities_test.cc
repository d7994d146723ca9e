#include <gtest/gtest.h>

#include <string>

#include "content/html_entities.h"

namespace pagesieve::content {
namespace {

std::string Decoded(std::string_view raw, bool in_attribute = false) {
  std::string out;
  AppendDecoded(raw, in_attribute, &out);
  return out;
}

TEST(EntitiesTest, NamedReferencesDecode) {
  EXPECT_EQ(Decoded("a &amp; b &lt;c&gt; &quot;d&quot;"), "a & b <c> \"d\"");
  EXPECT_EQ(Decoded("&hellip;&mdash;&eacute;&nbsp;"), "\xE2\x80\xA6\xE2\x80\x94\xC3\xA9\xC2\xA0");
}

TEST(EntitiesTest, NumericReferencesDecode) {
  EXPECT_EQ(Decoded("&#65;&#x42;&#X43;&#233;&#x1F600;"), "ABC\xC3\xA9\xF0\x9F\x98\x80");
}

TEST(EntitiesTest, NumericReferenceWithoutSemicolonStillDecodes) {
  EXPECT_EQ(Decoded("&#65 x"), "A x");
}

TEST(EntitiesTest, C1NumericReferencesMeanWindows1252) {
  EXPECT_EQ(Decoded("&#128;&#150;"), "\xE2\x82\xAC\xE2\x80\x93");
}

TEST(EntitiesTest, InvalidNumericReferencesBecomeReplacement) {
  EXPECT_EQ(Decoded("&#0;&#xD800;&#x110000;&#99999999999999999999;"),
            "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST(EntitiesTest, UnknownOrMalformedReferencesStayLiteral) {
  EXPECT_EQ(Decoded("&nosuch; & &# &#x; &"), "&nosuch; & &# &#x; &");
  EXPECT_EQ(Decoded(std::string(100, '&') + "amp"), std::string(100, '&'));
}

TEST(EntitiesTest, LegacyNamesDecodeWithoutSemicolonInText) {
  EXPECT_EQ(Decoded("AT&T &copy 2020"), "AT&T \xC2\xA9 2020");
  EXPECT_EQ(Decoded("&hellip no"), "&hellip no");  // not a legacy name
}

TEST(EntitiesTest, LegacyNameBeforeEqualsStaysLiteralInAttributes) {
  EXPECT_EQ(Decoded("?a=1&copy=2", /*in_attribute=*/true), "?a=1&copy=2");
  EXPECT_EQ(Decoded("?a=1&copy=2", /*in_attribute=*/false), "?a=1\xC2\xA9=2");
}

}  // namespace
}  // namespace pagesieve::content
