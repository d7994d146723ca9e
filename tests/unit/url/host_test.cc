// Host rules: case, escapes, IDN, trailing dots, IP addresses, forbidden
// characters, strip_www.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace pagesieve::url {
namespace {

using ::pagesieve::url::testing::Canon;
using ::testing::StartsWith;

TEST(HostTest, LowercasesAsciiHosts) {
  EXPECT_EQ(Canon("http://WWW.Example.COM/"), "http://www.example.com/");
}

TEST(HostTest, PercentDecodesTheHost) {
  EXPECT_EQ(Canon("http://ex%61mple%2Ecom/"), "http://example.com/");
  EXPECT_EQ(Canon("http://EX%41MPLE.com/"), "http://example.com/");  // decoded, then lowercased
}

TEST(HostTest, RejectsABrokenEscapeInTheHost) {
  EXPECT_EQ(Canon("http://example%2Xcom/"), "!error: invalid percent-escape in host");
  EXPECT_EQ(Canon("http://example.com%/"), "!error: invalid percent-escape in host");
  EXPECT_EQ(Canon("http://example.com%4/"), "!error: invalid percent-escape in host");
}

TEST(HostTest, DropsTrailingDots) {
  EXPECT_EQ(Canon("http://example.com./"), "http://example.com/");
  EXPECT_EQ(Canon("http://example.com.../"), "http://example.com/");
  EXPECT_EQ(Canon("http://example.com%2E/"), "http://example.com/");
}

TEST(HostTest, KeepsLeadingAndInnerEmptyLabels) {
  // Not a rule of ours to repair; browsers keep them too.
  EXPECT_EQ(Canon("http://.example.com/"), "http://.example.com/");
  EXPECT_EQ(Canon("http://a..b.com/"), "http://a..b.com/");
}

TEST(HostTest, RejectsAnEmptyHost) {
  for (const char* raw :
       {"http://", "http://:80/", "http://user@/", "http://./", "http://.../", "http://%2e/"}) {
    EXPECT_EQ(Canon(raw), "!error: empty host") << raw;
  }
}

TEST(HostTest, RejectsForbiddenCharacters) {
  for (const char* raw :
       {"http://exa mple.com/", "http://exa%20mple.com/", "http://a<b.com/", "http://a%3Cb.com/",
        "http://a^b.com/", "http://a|b.com/", "http://a%23b.com/", "http://a%2Fb.com/",
        "http://a%3Fb.com/", "http://a%40b.com/", "http://a%5Cb.com/", "http://a[b.com/",
        "http://a%25b.com/", "http://a%00b.com/", "http://a%7Fb.com/", "http://a%3Ab.com/"}) {
    EXPECT_EQ(Canon(raw), "!error: forbidden character in host") << raw;
  }
}

TEST(HostTest, AllowsCharactersBrowsersAllow) {
  EXPECT_EQ(Canon("http://my_host.example.com/"), "http://my_host.example.com/");
  EXPECT_EQ(Canon("http://a-b.c$d.com/"), "http://a-b.c$d.com/");
}

TEST(HostTest, ConvertsUnicodeHostsToPunycode) {
  EXPECT_EQ(Canon("http://bücher.de/"), "http://xn--bcher-kva.de/");
  EXPECT_EQ(Canon("http://BÜCHER.de/"), "http://xn--bcher-kva.de/");
  EXPECT_EQ(Canon("http://%C3%BCber.de/"), "http://xn--ber-goa.de/");
  EXPECT_EQ(Canon("http://例え.jp/"), "http://xn--r8jz45g.jp/");
}

TEST(HostTest, IdnIsNonTransitional) {
  // IDNA2008: ß is its own letter, not "ss".
  EXPECT_EQ(Canon("https://straße.de/"), "https://xn--strae-oqa.de/");
}

TEST(HostTest, IdnMapsFullwidthFormsAndDots) {
  EXPECT_EQ(Canon("http://ＥＸＡＭＰＬＥ。com/"), "http://example.com/");
  EXPECT_EQ(Canon("http://bücher．de/"), "http://xn--bcher-kva.de/");
}

TEST(HostTest, LowercasesAndValidatesALabels) {
  EXPECT_EQ(Canon("http://XN--BCHER-KVA.de/"), "http://xn--bcher-kva.de/");
  EXPECT_EQ(Canon("http://xn--zz.de/"),
            "!error: invalid internationalized host (string contains invalid punycode data)");
}

TEST(HostTest, LeavesAsciiLabelsOfAnIdnHostAlone) {
  // libidn2 rejects "--" in positions 3-4, but browsers accept such ASCII
  // labels (YouTube's caches use them), so only the labels that need IDNA go
  // through it.
  EXPECT_EQ(Canon("http://r3---sn-abc.bücher.de/"), "http://r3---sn-abc.xn--bcher-kva.de/");
}

TEST(HostTest, RejectsInvalidUtf8InTheHost) {
  EXPECT_EQ(Canon("http://abc%FEdef.org/"), "!error: host is not valid UTF-8");
  EXPECT_EQ(Canon("http://abc\xC3.org/"), "!error: host is not valid UTF-8");
}

TEST(HostTest, RejectsHostsIdnaDisallows) {
  EXPECT_THAT(Canon("http://a\u200Db.bücher.de/"),
              StartsWith("!error: invalid internationalized host ("));
}

TEST(HostTest, RepeatedIdnHostsGiveTheSameAnswer) {
  // The second and third calls are answered from the per-thread IDNA cache.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(Canon("http://bücher.de/"), "http://xn--bcher-kva.de/");
    EXPECT_EQ(Canon("http://xn--zz.de/"),
              "!error: invalid internationalized host (string contains invalid punycode data)");
  }
}

TEST(HostTest, IdnAnswersSurviveCacheEviction) {
  // More distinct hosts than the cache has slots, twice in opposite orders.
  const Canonicalizer canonicalizer({});
  std::vector<std::string> first;
  for (int i = 0; i < 600; ++i) {
    first.push_back(Canon(canonicalizer, "http://bücher" + std::to_string(i) + ".de/"));
    ASSERT_EQ(first.back().rfind("http://xn--bcher" + std::to_string(i) + "-", 0), 0u)
        << first.back();
  }
  for (int i = 599; i >= 0; --i) {
    EXPECT_EQ(Canon(canonicalizer, "http://bücher" + std::to_string(i) + ".de/"), first[i]);
  }
}

TEST(HostTest, WritesIpv4InAnyFormAsDottedDecimal) {
  EXPECT_EQ(Canon("http://192.168.0.1/"), "http://192.168.0.1/");
  EXPECT_EQ(Canon("http://3232235521/"), "http://192.168.0.1/");
  EXPECT_EQ(Canon("http://0xC0A80001/"), "http://192.168.0.1/");
  EXPECT_EQ(Canon("http://0300.0250.0.1/"), "http://192.168.0.1/");
  EXPECT_EQ(Canon("http://0xc0.0xa8.0x0.0x1/"), "http://192.168.0.1/");
  EXPECT_EQ(Canon("http://192.168.1/"), "http://192.168.0.1/");
  EXPECT_EQ(Canon("http://192.11010049/"), "http://192.168.0.1/");
  EXPECT_EQ(Canon("http://192.168.0.1./"), "http://192.168.0.1/");
  EXPECT_EQ(Canon("http://%31%39%32.168.0.1/"), "http://192.168.0.1/");
}

TEST(HostTest, RejectsAHostEndingInANumberThatIsNoIpv4Address) {
  for (const char* raw :
       {"http://256.0.0.1/", "http://1.2.3.4.5/", "http://example.123/", "http://1.2.3.08/",
        "http://4294967296/", "http://1..2/", "http://foo.0x/", "http://0x100000000/"}) {
    EXPECT_EQ(Canon(raw), "!error: invalid IPv4 address") << raw;
  }
}

TEST(HostTest, ReadsAHostWithANonNumericLastLabelAsADomain) {
  EXPECT_EQ(Canon("http://1.2.3.4a/"), "http://1.2.3.4a/");
  EXPECT_EQ(Canon("http://0x1g/"), "http://0x1g/");
}

TEST(HostTest, CompressesAndLowercasesIpv6) {
  EXPECT_EQ(Canon("http://[2001:DB8:0:0:0:0:0:1]/"), "http://[2001:db8::1]/");
  EXPECT_EQ(Canon("http://[2001:0db8:0000:0001:0000:0000:0000:0001]:80/"),
            "http://[2001:db8:0:1::1]/");
  EXPECT_EQ(Canon("http://[::ffff:192.168.0.1]/"), "http://[::ffff:c0a8:1]/");
}

TEST(HostTest, RejectsInvalidIpv6) {
  for (const char* raw : {"http://[::1/", "http://[::1]x/", "http://[1:2]/", "http://[::1%25eth0]/",
                          "http://[]/", "http://[g::1]/"}) {
    EXPECT_EQ(Canon(raw), "!error: invalid IPv6 address") << raw;
  }
}

TEST(HostTest, StripWwwDropsLeadingWwwLabels) {
  CanonicalizerOptions options;
  options.strip_www = true;
  EXPECT_EQ(Canon("http://www.example.com/", options), "http://example.com/");
  EXPECT_EQ(Canon("http://WWW.www.example.com/", options), "http://example.com/");
  EXPECT_EQ(Canon("http://www2.example.com/", options), "http://www2.example.com/");
  EXPECT_EQ(Canon("http://www.example.com/", {}), "http://www.example.com/");
}

TEST(HostTest, StripWwwStopsAtAPublicSuffix) {
  CanonicalizerOptions options;
  options.strip_www = true;
  EXPECT_EQ(Canon("http://www.co.uk/", options), "http://www.co.uk/");
  EXPECT_EQ(Canon("http://www.com/", options), "http://www.com/");
  EXPECT_EQ(Canon("http://www.localhost/", options), "http://www.localhost/");
  EXPECT_EQ(Canon("http://www.bbc.co.uk/", options), "http://bbc.co.uk/");
}

}  // namespace
}  // namespace pagesieve::url
