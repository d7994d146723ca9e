#include "content/utf8.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace pagesieve::content {
namespace {

std::string Repaired(std::string_view s) {
  std::string out;
  AppendRepairedUtf8(s, &out);
  return out;
}

TEST(Utf8Test, ValidTextIsKeptAsIs) {
  const std::string text = "plain ascii, \xC3\xA9t\xC3\xA9, \xE2\x82\xAC, \xF0\x9F\x98\x80";
  EXPECT_EQ(ValidUtf8PrefixLength(text), text.size());
  EXPECT_EQ(Repaired(text), text);
}

TEST(Utf8Test, AsciiPrefixStopsAtFirstHighByte) {
  EXPECT_EQ(AsciiPrefixLength("abcdefghij\xC3\xA9"), 10u);
  EXPECT_EQ(AsciiPrefixLength(""), 0u);
  EXPECT_EQ(AsciiPrefixLength("\x80"), 0u);
}

TEST(Utf8Test, LoneContinuationByteBecomesReplacement) {
  EXPECT_EQ(Repaired("a\x80"
                     "b"),
            "a\xEF\xBF\xBD"
            "b");
}

TEST(Utf8Test, TruncatedSequenceBecomesOneReplacement) {
  // E2 82 is the start of a three-byte sequence cut short: one U+FFFD.
  EXPECT_EQ(Repaired("x\xE2\x82y"), "x\xEF\xBF\xBDy");
  EXPECT_EQ(Repaired("x\xE2\x82"), "x\xEF\xBF\xBD");
}

TEST(Utf8Test, OverlongAndSurrogateEncodingsAreRejected) {
  EXPECT_EQ(ValidUtf8PrefixLength("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(ValidUtf8PrefixLength("\xE0\x80\xAF"), 0u);      // overlong
  EXPECT_EQ(ValidUtf8PrefixLength("\xED\xA0\x80"), 0u);      // U+D800
  EXPECT_EQ(ValidUtf8PrefixLength("\xF4\x90\x80\x80"), 0u);  // beyond U+10FFFF
}

TEST(Utf8Test, RepairedRandomBytesAreAlwaysValid) {
  std::mt19937 rng(42);
  for (int round = 0; round < 200; ++round) {
    std::string bytes(1 + rng() % 300, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    const std::string repaired = Repaired(bytes);
    EXPECT_EQ(ValidUtf8PrefixLength(repaired), repaired.size());
  }
}

TEST(Utf8Test, AppendCodePointEncodesAndReplacesInvalid) {
  std::string out;
  AppendCodePoint(0x41, &out);
  AppendCodePoint(0xE9, &out);
  AppendCodePoint(0x20AC, &out);
  AppendCodePoint(0x1F600, &out);
  EXPECT_EQ(out, "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  out.clear();
  AppendCodePoint(0xD800, &out);
  AppendCodePoint(0x110000, &out);
  EXPECT_EQ(out, "\xEF\xBF\xBD\xEF\xBF\xBD");
}

}  // namespace
}  // namespace pagesieve::content
