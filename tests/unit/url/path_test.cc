// Path rules.

#include <gtest/gtest.h>

#include "test_util.h"

namespace pagesieve::url {
namespace {

using ::pagesieve::url::testing::Canon;

std::string Path(std::string_view path, CanonicalizerOptions options = {}) {
  const std::string spec = Canon("http://h" + std::string(path), std::move(options));
  return spec.rfind("http://h", 0) == 0 ? spec.substr(8) : spec;
}

TEST(PathTest, EmptyPathBecomesSlash) {
  EXPECT_EQ(Path(""), "/");
  EXPECT_EQ(Path("?a=1"), "/?a=1");
}

TEST(PathTest, BackslashIsASlash) {
  EXPECT_EQ(Path("\\a\\b"), "/a/b");
  EXPECT_EQ(Path("/a\\..\\b"), "/b");
}

TEST(PathTest, ResolvesDotSegments) {
  EXPECT_EQ(Path("/a/./b"), "/a/b");
  EXPECT_EQ(Path("/a/b/../c"), "/a/c");
  EXPECT_EQ(Path("/a/b/c/../../d"), "/a/d");
  EXPECT_EQ(Path("/a/b/.."), "/a/");
  EXPECT_EQ(Path("/a/b/."), "/a/b/");
  EXPECT_EQ(Path("/."), "/");
}

TEST(PathTest, DotDotNeverClimbsAboveTheRoot) {
  EXPECT_EQ(Path("/.."), "/");
  EXPECT_EQ(Path("/../../a"), "/a");
  EXPECT_EQ(Path("/a/../../b/.."), "/");
}

TEST(PathTest, ResolvesEscapedDotSegments) {
  EXPECT_EQ(Path("/a/%2e/b"), "/a/b");
  EXPECT_EQ(Path("/a/b/%2E%2e/c"), "/a/c");
  EXPECT_EQ(Path("/a/b/.%2E/c"), "/a/c");
  EXPECT_EQ(Path("/a/b/%2e./c"), "/a/c");
}

TEST(PathTest, KeepsSegmentsThatOnlyLookLikeDots) {
  EXPECT_EQ(Path("/a/.../b"), "/a/.../b");
  EXPECT_EQ(Path("/a/..b/c"), "/a/..b/c");
  EXPECT_EQ(Path("/a/.b"), "/a/.b");
  EXPECT_EQ(Path("/a/.;x=1/b"), "/a/.;x=1/b");
}

TEST(PathTest, CollapsesRepeatedSlashes) {
  EXPECT_EQ(Path("//a///b//"), "/a/b/");
  EXPECT_EQ(Path("/a//../b"), "/b");
  EXPECT_EQ(Path("////"), "/");
}

TEST(PathTest, KeepsATrailingSlash) {
  EXPECT_EQ(Path("/a/"), "/a/");
  EXPECT_EQ(Path("/a"), "/a");
}

TEST(PathTest, RemovesSessionPathParameters) {
  EXPECT_EQ(Path("/a;jsessionid=0123ABC"), "/a");
  EXPECT_EQ(Path("/a;JSESSIONID=0123ABC/b"), "/a/b");
  EXPECT_EQ(Path("/a;phpsessid=1;x=2"), "/a;x=2");
  EXPECT_EQ(Path("/a;x=2;jsessionid=1;y"), "/a;x=2;y");
  EXPECT_EQ(Path("/;jsessionid=1"), "/");
  EXPECT_EQ(Path("/a/..;jsessionid=1/b"), "/b");
  EXPECT_EQ(Path("/a;jsession%69d=1"), "/a");  // matched on the decoded name
}

TEST(PathTest, KeepsOtherPathParameters) {
  EXPECT_EQ(Path("/a;x=1;y/b;"), "/a;x=1;y/b;");
  EXPECT_EQ(Path("/a;jsessionidx=1"), "/a;jsessionidx=1");
}

TEST(PathTest, SessionParameterRemovalFollowsStripParams) {
  CanonicalizerOptions options;
  options.strip_params = {"sid"};
  EXPECT_EQ(Path("/a;sid=1;jsessionid=2", options), "/a;jsessionid=2");
}

TEST(PathTest, DecodesEscapesOfUnreservedCharacters) {
  EXPECT_EQ(Path("/%41%7a%30%2D%2e%5F%7E"), "/Az0-._~");
}

TEST(PathTest, UppercasesOtherEscapes) { EXPECT_EQ(Path("/%2f%3a%c3%a9%25"), "/%2F%3A%C3%A9%25"); }

TEST(PathTest, KeepsEscapedSlashesEscaped) {
  EXPECT_EQ(Path("/a%2Fb/c"), "/a%2Fb/c");
  EXPECT_EQ(Path("/a/%2E%2E%2Fb"), "/a/..%2Fb");
}

TEST(PathTest, EncodesControlsSpaceNonAsciiAndUnsafeCharacters) {
  EXPECT_EQ(Path("/a b"), "/a%20b");
  EXPECT_EQ(Path("/\x01\x7f"), "/%01%7F");
  EXPECT_EQ(Path("/é"), "/%C3%A9");
  EXPECT_EQ(Path("/\"<>`{}|^"), "/%22%3C%3E%60%7B%7D%7C%5E");
}

TEST(PathTest, KeepsOtherPrintableCharacters) {
  EXPECT_EQ(Path("/!$&'()*+,;=:@[]"), "/!$&'()*+,;=:@[]");
}

TEST(PathTest, EscapesAPercentThatStartsNoEscape) {
  EXPECT_EQ(Path("/%"), "/%25");
  EXPECT_EQ(Path("/%zz%4"), "/%25zz%254");
  EXPECT_EQ(Path("/%%41"), "/%25A");
}

TEST(PathTest, StripIndexDropsAnIndexLastSegment) {
  CanonicalizerOptions options;
  options.strip_index = true;
  for (const char* name : {"index.html", "index.htm", "index.php", "default.asp", "default.aspx",
                           "Default.ASPX", "INDEX.HTML"}) {
    EXPECT_EQ(Path("/a/" + std::string(name), options), "/a/") << name;
  }
  EXPECT_EQ(Path("/index.html", options), "/");
  EXPECT_EQ(Path("/index.html?x=1", options), "/?x=1");
  EXPECT_EQ(Path("/index.html/a", options), "/index.html/a");
  EXPECT_EQ(Path("/a/index.jsp", options), "/a/index.jsp");
  EXPECT_EQ(Path("/a/index.html", {}), "/a/index.html");
}

TEST(PathTest, StripTrailingSlashKeepsTheRoot) {
  CanonicalizerOptions options;
  options.strip_trailing_slash = true;
  EXPECT_EQ(Path("/a/b/", options), "/a/b");
  EXPECT_EQ(Path("/a//", options), "/a");
  EXPECT_EQ(Path("/a/b/..", options), "/a");
  EXPECT_EQ(Path("/", options), "/");
  EXPECT_EQ(Path("", options), "/");
}

TEST(PathTest, StripIndexAndTrailingSlashTogetherReachAFixedPoint) {
  CanonicalizerOptions options;
  options.strip_index = true;
  options.strip_trailing_slash = true;
  EXPECT_EQ(Path("/a/index.html/index.html/", options), "/a");
  EXPECT_EQ(Path("/index.html/", options), "/");
}

}  // namespace
}  // namespace pagesieve::url
