#include <gtest/gtest.h>

#include <string>

#include "content/charset.h"
#include "content/content.h"
#include "content/utf8.h"

namespace pagesieve::content {
namespace {

TEST(DecodeToUtf8Test, Utf8BodyIsReturnedUnchanged) {
  const std::string body = "<p>caf\xC3\xA9 \xE2\x82\xAC</p>";
  EXPECT_EQ(DecodeToUtf8(body, "text/html"), body);
}

TEST(DecodeToUtf8Test, InvalidUtf8IsReplacedNotRejected) {
  EXPECT_EQ(DecodeToUtf8("a\xFF"
                         "b",
                         "text/html"),
            "a\xEF\xBF\xBD"
            "b");
}

TEST(DecodeToUtf8Test, CharsetFromContentTypeIsUsed) {
  EXPECT_EQ(DecodeToUtf8("caf\xE9", "text/html; charset=ISO-8859-1"), "caf\xC3\xA9");
  EXPECT_EQ(DecodeToUtf8("caf\xE9", "text/plain;charset=\"latin1\""), "caf\xC3\xA9");
}

TEST(DecodeToUtf8Test, Latin1MeansWindows1252AsInBrowsers) {
  // 0x80 is the euro sign in windows-1252, a C1 control in ISO-8859-1.
  EXPECT_EQ(DecodeToUtf8("\x80", "text/html; charset=iso-8859-1"), "\xE2\x82\xAC");
}

TEST(DecodeToUtf8Test, MetaCharsetIsUsedForHtml) {
  const std::string body = "<html><head><meta charset=\"windows-1252\"></head><p>caf\xE9";
  EXPECT_EQ(DecodeToUtf8(body, "text/html"),
            "<html><head><meta charset=\"windows-1252\"></head><p>caf\xC3\xA9");
}

TEST(DecodeToUtf8Test, MetaHttpEquivIsUsedForHtml) {
  const std::string body =
      "<META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=koi8-r'>\xC1";
  const std::string decoded = DecodeToUtf8(body, "");
  EXPECT_TRUE(decoded.ends_with("\xD0\xB0")) << decoded;  // KOI8-R 0xC1 is Cyrillic a
}

TEST(DecodeToUtf8Test, ContentTypeCharsetWinsOverMeta) {
  const std::string body = "<meta charset=koi8-r><p>caf\xC3\xA9";
  EXPECT_EQ(DecodeToUtf8(body, "text/html; charset=utf-8"), body);
}

TEST(DecodeToUtf8Test, BomWinsOverContentTypeAndIsRemoved) {
  const std::string body("\xFF\xFEh\0i\0", 6);
  EXPECT_EQ(DecodeToUtf8(body, "text/html; charset=windows-1252"), "hi");
  EXPECT_EQ(DecodeToUtf8("\xEF\xBB\xBFhi", "text/html; charset=koi8-r"), "hi");
}

TEST(DecodeToUtf8Test, MetaBeyondTheFirstKilobyteIsIgnored) {
  const std::string body = "<p>" + std::string(1100, 'x') + "<meta charset=koi8-r>\xC1";
  EXPECT_TRUE(DecodeToUtf8(body, "text/html").ends_with("\xEF\xBF\xBD"));
}

TEST(DecodeToUtf8Test, MetaInsideCommentIsIgnored) {
  const std::string body = "<!-- <meta charset=koi8-r> --><p>\xC3\xA9";
  EXPECT_EQ(DecodeToUtf8(body, "text/html"), body);
}

TEST(DecodeToUtf8Test, Utf16DeclaredInMetaMeansUtf8) {
  const std::string body = "<meta charset=utf-16><p>\xC3\xA9";
  EXPECT_EQ(DecodeToUtf8(body, "text/html"), body);
}

TEST(DecodeToUtf8Test, MultiByteLegacyCharsetsDecode) {
  EXPECT_EQ(DecodeToUtf8("\x82\xA0", "text/plain; charset=shift_jis"), "\xE3\x81\x82");  // あ
  EXPECT_EQ(DecodeToUtf8("\xC4\xE3", "text/plain; charset=gb2312"), "\xE4\xBD\xA0");     // 你
}

TEST(DecodeToUtf8Test, UnknownCharsetFallsBackToUtf8) {
  EXPECT_EQ(DecodeToUtf8("caf\xC3\xA9", "text/html; charset=x-no-such-thing"), "caf\xC3\xA9");
}

TEST(DecodeToUtf8Test, BytesTheCharsetCannotMapBecomeReplacements) {
  // Shift_JIS lead byte followed by an invalid trail byte, then text.
  const std::string decoded = DecodeToUtf8(
      "a\x81\x20"
      "b\xFF"
      "c",
      "text/plain; charset=shift_jis");
  EXPECT_EQ(ValidUtf8PrefixLength(decoded), decoded.size());
  EXPECT_EQ(decoded.front(), 'a');
  EXPECT_EQ(decoded.back(), 'c');
  EXPECT_NE(decoded.find("\xEF\xBF\xBD"), std::string::npos);
}

TEST(DecodeToUtf8Test, EmptyBodyDecodesToEmpty) {
  EXPECT_EQ(DecodeToUtf8("", ""), "");
  EXPECT_EQ(DecodeToUtf8("", "text/html; charset=shift_jis"), "");
}

TEST(CharsetTest, LabelsFollowTheEncodingStandard) {
  ASSERT_NE(EncodingForLabel(" Latin1 "), nullptr);
  EXPECT_EQ(EncodingForLabel(" Latin1 ")->name, "windows-1252");
  EXPECT_EQ(EncodingForLabel("US-ASCII")->name, "windows-1252");
  EXPECT_EQ(EncodingForLabel("sjis")->name, "shift_jis");
  EXPECT_EQ(EncodingForLabel("GB2312")->name, "gbk");
  EXPECT_EQ(EncodingForLabel("utf8")->name, "utf-8");
  EXPECT_EQ(EncodingForLabel("iso-8859-9")->name, "windows-1254");
  EXPECT_EQ(EncodingForLabel("bogus"), nullptr);
  EXPECT_EQ(EncodingForLabel(""), nullptr);
}

TEST(CharsetTest, CharsetIsFoundInContentAttribute) {
  EXPECT_EQ(CharsetFromContentAttribute("text/html; charset=UTF-8"), "UTF-8");
  EXPECT_EQ(CharsetFromContentAttribute("text/html;Charset = 'koi8-r' "), "koi8-r");
  EXPECT_EQ(CharsetFromContentAttribute("text/html; charset=\"big5\"; x=y"), "big5");
  EXPECT_EQ(CharsetFromContentAttribute("text/html"), "");
  EXPECT_EQ(CharsetFromContentAttribute("charset"), "");
}

}  // namespace
}  // namespace pagesieve::content
