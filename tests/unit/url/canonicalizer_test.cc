// The canonicalizer as a whole: scheme, cleaning, length, userinfo, port,
// fragment, the optional rules and the CanonicalUrl accessors. Host, path and
// query rules have their own files.

#include "url/canonicalizer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "test_util.h"

namespace pagesieve::url {
namespace {

using ::pagesieve::url::testing::Canon;
using ::testing::StartsWith;

TEST(CanonicalizerTest, LowercasesTheScheme) {
  EXPECT_EQ(Canon("HTTP://example.com/"), "http://example.com/");
  EXPECT_EQ(Canon("hTtPs://example.com/"), "https://example.com/");
}

TEST(CanonicalizerTest, RejectsOtherSchemes) {
  for (const char* raw : {"ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)",
                          "mailto:a@example.com", "httpx://example.com/", "http+s://a.com/"}) {
    EXPECT_EQ(Canon(raw), "!error: unsupported scheme") << raw;
  }
}

TEST(CanonicalizerTest, RejectsAMissingScheme) {
  for (const char* raw :
       {"example.com/", "//example.com/", "/path", "", "   ", ":a", "1http://a"}) {
    EXPECT_EQ(Canon(raw), "!error: missing scheme") << raw;
  }
}

TEST(CanonicalizerTest, ErrorsAreInvalidArgument) {
  StatusOr<CanonicalUrl> url = Canonicalizer({}).Canonicalize("ftp://example.com/");
  ASSERT_FALSE(url.ok());
  EXPECT_EQ(url.status().code(), StatusCode::kInvalidArgument);
}

TEST(CanonicalizerTest, TrimsSpacesAndControlsAtBothEnds) {
  EXPECT_EQ(Canon(" \t\x01\x1f http://example.com/a \x1f\n"), "http://example.com/a");
  EXPECT_EQ(Canon(std::string_view(" http://example.com/a\0", 22)), "http://example.com/a");
}

TEST(CanonicalizerTest, RemovesTabsAndNewlinesAnywhere) {
  EXPECT_EQ(Canon("ht\ttp://exa\r\nmple.com/a\tb?q=1\n2#x"), "http://example.com/ab?q=12");
}

TEST(CanonicalizerTest, EncodesControlsInsideThePathInsteadOfTrimmingThem) {
  EXPECT_EQ(Canon("http://example.com/a\x01"
                  "b"),
            "http://example.com/a%01b");
}

TEST(CanonicalizerTest, RejectsAUrlLongerThanMaxLength) {
  CanonicalizerOptions options;
  options.max_length = 40;
  const std::string fits = "http://example.com/" + std::string(21, 'a');  // 40 bytes
  EXPECT_EQ(Canon(fits, options), fits);
  EXPECT_EQ(Canon(fits + "a", options), "!error: URL longer than url.max_length");
}

TEST(CanonicalizerTest, MeasuresMaxLengthAfterTrimming) {
  CanonicalizerOptions options;
  options.max_length = 40;
  const std::string fits = "http://example.com/" + std::string(21, 'a');
  EXPECT_EQ(Canon("   " + fits + "\n\n", options), fits);
}

TEST(CanonicalizerTest, RejectsACanonicalFormLongerThanMaxLength) {
  // Each space becomes three bytes: the input fits, its canonical form would
  // not, and accepting it would make the result fail on a second pass.
  CanonicalizerOptions options;
  options.max_length = 40;
  EXPECT_EQ(Canon("http://example.com/" + std::string(10, ' ') + "a", options),
            "!error: canonical URL longer than url.max_length");
}

TEST(CanonicalizerTest, DropsUserinfo) {
  EXPECT_EQ(Canon("http://user:pass@example.com/"), "http://example.com/");
  EXPECT_EQ(Canon("http://@example.com/"), "http://example.com/");
  EXPECT_EQ(Canon("http://a@b@example.com/"), "http://example.com/");  // the last '@' counts
}

TEST(CanonicalizerTest, AcceptsAnyRunOfSlashesAndBackslashesAfterTheScheme) {
  // As browsers parse http(s) URLs.
  EXPECT_EQ(Canon("http:example.com/a"), "http://example.com/a");
  EXPECT_EQ(Canon("http:/example.com/a"), "http://example.com/a");
  EXPECT_EQ(Canon("http:\\\\example.com\\a"), "http://example.com/a");
  EXPECT_EQ(Canon("http:////example.com/a"), "http://example.com/a");
}

TEST(CanonicalizerTest, DropsTheDefaultPort) {
  EXPECT_EQ(Canon("http://example.com:80/"), "http://example.com/");
  EXPECT_EQ(Canon("https://example.com:443/"), "https://example.com/");
}

TEST(CanonicalizerTest, KeepsOtherPorts) {
  EXPECT_EQ(Canon("http://example.com:443/"), "http://example.com:443/");
  EXPECT_EQ(Canon("https://example.com:80/"), "https://example.com:80/");
  EXPECT_EQ(Canon("http://example.com:8080/"), "http://example.com:8080/");
  EXPECT_EQ(Canon("http://example.com:0/"), "http://example.com:0/");
}

TEST(CanonicalizerTest, DropsAnEmptyPort) {
  EXPECT_EQ(Canon("http://example.com:/a"), "http://example.com/a");
  EXPECT_EQ(Canon("http://example.com:"), "http://example.com/");
}

TEST(CanonicalizerTest, WritesThePortWithoutLeadingZeros) {
  EXPECT_EQ(Canon("http://example.com:0080/"), "http://example.com/");
  EXPECT_EQ(Canon("http://example.com:08080/"), "http://example.com:8080/");
  EXPECT_EQ(Canon("http://example.com:000/"), "http://example.com:0/");
}

TEST(CanonicalizerTest, RejectsInvalidPorts) {
  for (const char* raw : {"http://example.com:65536/", "http://example.com:99999999999999999999/",
                          "http://example.com:8o/", "http://example.com:-1/",
                          "http://example.com:80:80/", "http://example.com: 80/"}) {
    EXPECT_EQ(Canon(raw), "!error: invalid port") << raw;
  }
  EXPECT_EQ(Canon("http://example.com:65535/"), "http://example.com:65535/");
}

TEST(CanonicalizerTest, DropsTheFragment) {
  EXPECT_EQ(Canon("http://example.com/a#frag"), "http://example.com/a");
  EXPECT_EQ(Canon("http://example.com/a?b=1#frag?c=2&d"), "http://example.com/a?b=1");
  EXPECT_EQ(Canon("http://example.com#frag"), "http://example.com/");
  EXPECT_EQ(Canon("http://example.com/#"), "http://example.com/");
}

TEST(CanonicalizerTest, FoldSchemeWritesHttpAsHttps) {
  CanonicalizerOptions options;
  options.fold_scheme = true;
  EXPECT_EQ(Canon("http://example.com/a", options), "https://example.com/a");
  EXPECT_EQ(Canon("https://example.com/a", options), "https://example.com/a");
  EXPECT_EQ(Canon("http://example.com/a", {}), "http://example.com/a");
}

TEST(CanonicalizerTest, FoldSchemeDropsTheDefaultPortOfEitherScheme) {
  // :443 would be dropped on a second pass once the scheme is https, so it
  // goes on the first.
  CanonicalizerOptions options;
  options.fold_scheme = true;
  EXPECT_EQ(Canon("http://example.com:80/", options), "https://example.com/");
  EXPECT_EQ(Canon("http://example.com:443/", options), "https://example.com/");
  EXPECT_EQ(Canon("https://example.com:80/", options), "https://example.com:80/");
}

TEST(CanonicalizerTest, AccessorsPointIntoTheSpec) {
  StatusOr<CanonicalUrl> url =
      Canonicalizer({}).Canonicalize("HTTPS://Example.COM:8443/a/b?y=2&x=1#f");
  ASSERT_TRUE(url.ok()) << url.status().ToString();
  EXPECT_EQ(url->spec, "https://example.com:8443/a/b?x=1&y=2");
  EXPECT_EQ(url->scheme(), "https");
  EXPECT_EQ(url->host(), "example.com");
  EXPECT_EQ(url->path(), "/a/b");
  EXPECT_EQ(url->query(), "x=1&y=2");
  EXPECT_EQ(url->path_and_query(), "/a/b?x=1&y=2");
}

TEST(CanonicalizerTest, AccessorsWithoutQuery) {
  StatusOr<CanonicalUrl> url = Canonicalizer({}).Canonicalize("http://example.com");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->scheme(), "http");
  EXPECT_EQ(url->path(), "/");
  EXPECT_EQ(url->query(), "");
  EXPECT_EQ(url->path_and_query(), "/");
}

TEST(CanonicalizerTest, HostOfAnIpv6UrlHasNoBrackets) {
  StatusOr<CanonicalUrl> url = Canonicalizer({}).Canonicalize("http://[::1]:8080/x");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->spec, "http://[::1]:8080/x");
  EXPECT_EQ(url->host(), "::1");
  EXPECT_EQ(url->path(), "/x");
}

TEST(CanonicalizerTest, HostAfterStripWwwIsTheStrippedHost) {
  CanonicalizerOptions options;
  options.strip_www = true;
  StatusOr<CanonicalUrl> url = Canonicalizer(options).Canonicalize("http://www.example.com/");
  ASSERT_TRUE(url.ok());
  EXPECT_EQ(url->host(), "example.com");
}

TEST(CanonicalizerTest, CanonicalFormIsAFixedPoint) {
  const Canonicalizer canonicalizer({});
  for (const char* raw :
       {"HTTP://User@WWW.Example.COM.:0080/a/./b/../%7Ec/%2e%2E/"
        "d;jsessionid=1?b=2&&a=%41&utm_x=1#f",
        "http://xn--BCHER-kva.de/ü?ü=1", "http://0x7f.1/%zz", "http://[0:0::1]/a//b/"}) {
    const std::string once = Canon(canonicalizer, raw);
    ASSERT_THAT(once, StartsWith("http")) << raw;
    EXPECT_EQ(Canon(canonicalizer, once), once) << raw;
  }
}

}  // namespace
}  // namespace pagesieve::url
