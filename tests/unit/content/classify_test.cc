#include <gtest/gtest.h>

#include "content/content.h"

namespace pagesieve::content {
namespace {

TEST(ClassifyContentTest, HtmlTypesAreHtmlWhateverTheBody) {
  EXPECT_EQ(ClassifyContent("text/html; charset=utf-8", "plain words"), ContentKind::kHtml);
  EXPECT_EQ(ClassifyContent("TEXT/HTML", ""), ContentKind::kHtml);
  EXPECT_EQ(ClassifyContent("application/xhtml+xml", "<html/>"), ContentKind::kHtml);
}

TEST(ClassifyContentTest, TextTypesSkipExtraction) {
  EXPECT_EQ(ClassifyContent("text/plain", "<html><body>x</body></html>"), ContentKind::kText);
  EXPECT_EQ(ClassifyContent("text/markdown; charset=utf-8", "# Title"), ContentKind::kText);
  EXPECT_EQ(ClassifyContent("application/json", "{}"), ContentKind::kText);
}

TEST(ClassifyContentTest, BinaryTypesAreOther) {
  EXPECT_EQ(ClassifyContent("application/pdf", "%PDF-1.7"), ContentKind::kOther);
  EXPECT_EQ(ClassifyContent("image/png", "\x89PNG"), ContentKind::kOther);
  EXPECT_EQ(ClassifyContent("image/svg+xml", "<svg></svg>"), ContentKind::kOther);
  EXPECT_EQ(ClassifyContent("video/mp4", ""), ContentKind::kOther);
  EXPECT_EQ(ClassifyContent("application/zip", "PK\x03\x04"), ContentKind::kOther);
}

TEST(ClassifyContentTest, MissingTypeIsSniffedAsHtml) {
  EXPECT_EQ(ClassifyContent("", "<!DOCTYPE html><html>"), ContentKind::kHtml);
  EXPECT_EQ(ClassifyContent("", "\xEF\xBB\xBF  \n<html lang=en>"), ContentKind::kHtml);
  EXPECT_EQ(ClassifyContent("application/octet-stream", "<!-- x --><p>hi"), ContentKind::kHtml);
  EXPECT_EQ(ClassifyContent("", "<?xml version=\"1.0\"?>\n<html xmlns=\"x\">"), ContentKind::kHtml);
}

TEST(ClassifyContentTest, MissingTypeWithBinarySignatureIsOther) {
  EXPECT_EQ(ClassifyContent("", "%PDF-1.4\n..."), ContentKind::kOther);
  EXPECT_EQ(ClassifyContent("", std::string_view("\x1F\x8B\x08\x00", 4)), ContentKind::kOther);
  EXPECT_EQ(ClassifyContent("", std::string_view("ab\0cd", 5)), ContentKind::kOther);
}

TEST(ClassifyContentTest, MissingTypeWithPlainTextIsText) {
  EXPECT_EQ(ClassifyContent("", "Just a note.\nSecond line."), ContentKind::kText);
  EXPECT_EQ(ClassifyContent("*/*", "<htmlish but not a tag"), ContentKind::kText);
}

TEST(ClassifyContentTest, UnparseableTypeIsSniffed) {
  EXPECT_EQ(ClassifyContent("garbage;;", "<html><body>x"), ContentKind::kHtml);
  EXPECT_EQ(ClassifyContent("text", "hello"), ContentKind::kText);
}

TEST(ClassifyContentTest, GenericXmlIsHtmlOnlyWhenItLooksLikeHtml) {
  EXPECT_EQ(ClassifyContent("application/xml", "<?xml version='1.0'?><html>"), ContentKind::kHtml);
  EXPECT_EQ(ClassifyContent("application/rss+xml", "<?xml version='1.0'?><rss>"),
            ContentKind::kText);
}

TEST(ClassifyContentTest, Utf16BodyIsSniffedThroughItsBom) {
  const std::string body("\xFF\xFE<\0h\0t\0m\0l\0>\0", 14);
  EXPECT_EQ(ClassifyContent("", body), ContentKind::kHtml);
}

}  // namespace
}  // namespace pagesieve::content
