#include "url/registered_domain.h"

#include <gtest/gtest.h>

namespace pagesieve::url {
namespace {

TEST(RegisteredDomainTest, TakesTheLabelBeforeThePublicSuffix) {
  EXPECT_EQ(RegisteredDomain("news.bbc.co.uk"), "bbc.co.uk");
  EXPECT_EQ(RegisteredDomain("a.b.example.com"), "example.com");
  EXPECT_EQ(RegisteredDomain("example.com"), "example.com");
}

TEST(RegisteredDomainTest, KnowsPrivateSuffixes) {
  EXPECT_EQ(RegisteredDomain("a.user.github.io"), "user.github.io");
}

TEST(RegisteredDomainTest, WorksOnPunycode) {
  EXPECT_EQ(RegisteredDomain("www.xn--90ax2c.xn--p1ai"), "xn--90ax2c.xn--p1ai");
}

TEST(RegisteredDomainTest, ReturnsIpAddressesWhole) {
  EXPECT_EQ(RegisteredDomain("192.168.0.1"), "192.168.0.1");
  EXPECT_EQ(RegisteredDomain("2001:db8::1"), "2001:db8::1");
  EXPECT_EQ(RegisteredDomain("[2001:db8::1]"), "[2001:db8::1]");
}

TEST(RegisteredDomainTest, ReturnsHostsWithoutARegistrableDomainWhole) {
  EXPECT_EQ(RegisteredDomain("localhost"), "localhost");
  EXPECT_EQ(RegisteredDomain("co.uk"), "co.uk");
  EXPECT_EQ(RegisteredDomain("com"), "com");
  EXPECT_EQ(RegisteredDomain(""), "");
}

TEST(RegisteredDomainTest, TreatsAnUnknownTldAsOneLabelSuffix) {
  EXPECT_EQ(RegisteredDomain("a.b.intranet"), "b.intranet");
}

TEST(RegisteredDomainTest, ToleratesCaseAndATrailingDot) {
  EXPECT_EQ(RegisteredDomain("News.BBC.co.uk."), "bbc.co.uk");
}

}  // namespace
}  // namespace pagesieve::url
