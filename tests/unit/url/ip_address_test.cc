#include "url/ip_address.h"

#include <gtest/gtest.h>

#include <random>

namespace pagesieve::url::internal {
namespace {

std::string Ipv4(uint32_t address) {
  std::string out;
  AppendIpv4(address, &out);
  return out;
}

std::string Ipv6(std::string_view text) {
  const std::optional<Ipv6Address> address = ParseIpv6(text);
  if (!address) return "<invalid>";
  std::string out;
  AppendIpv6(*address, &out);
  return out;
}

TEST(Ipv4Test, EndsInNumberLooksAtTheLastLabel) {
  EXPECT_TRUE(EndsInNumber("1.2.3.4"));
  EXPECT_TRUE(EndsInNumber("example.123"));
  EXPECT_TRUE(EndsInNumber("example.0x1f"));
  EXPECT_TRUE(EndsInNumber("0x"));
  EXPECT_FALSE(EndsInNumber("example.com"));
  EXPECT_FALSE(EndsInNumber("1.2.3.4a"));
  EXPECT_FALSE(EndsInNumber("0x1g"));
  EXPECT_FALSE(EndsInNumber("1."));
  EXPECT_FALSE(EndsInNumber(""));
}

TEST(Ipv4Test, ParsesEachRadix) {
  EXPECT_EQ(ParseIpv4("10.0.0.1"), 0x0A000001u);
  EXPECT_EQ(ParseIpv4("012.0.0.01"), 0x0A000001u);
  EXPECT_EQ(ParseIpv4("0xa.0X0.0x.1"), 0x0A000001u);
  EXPECT_EQ(ParseIpv4("0"), 0u);
  EXPECT_EQ(ParseIpv4("00"), 0u);
}

TEST(Ipv4Test, TheLastPartFillsTheRemainingBytes) {
  EXPECT_EQ(ParseIpv4("1.65538"), 0x01010002u);  // 1.1.0.2
  EXPECT_EQ(ParseIpv4("1.2.258"), 0x01020102u);
  EXPECT_EQ(ParseIpv4("4294967295"), 0xFFFFFFFFu);
}

TEST(Ipv4Test, RejectsOutOfRangeParts) {
  EXPECT_FALSE(ParseIpv4("256.1.1.1"));
  EXPECT_FALSE(ParseIpv4("1.1.1.256"));
  EXPECT_FALSE(ParseIpv4("1.16777216"));
  EXPECT_FALSE(ParseIpv4("4294967296"));
}

TEST(Ipv4Test, RejectsMalformedParts) {
  for (const char* text : {"1.2.3.4.5", "1..2", "1.2.", ".1", "08", "0x1g", "1.a", "", "-1"}) {
    EXPECT_FALSE(ParseIpv4(text)) << text;
  }
}

TEST(Ipv4Test, SurvivesHugeNumbers) {
  EXPECT_FALSE(ParseIpv4(std::string(5000, '9')));
  EXPECT_FALSE(ParseIpv4("0x" + std::string(5000, 'f')));
  EXPECT_EQ(ParseIpv4("0x" + std::string(5000, '0') + "1"), 1u);
}

TEST(Ipv4Test, WritesDottedDecimal) {
  EXPECT_EQ(Ipv4(0), "0.0.0.0");
  EXPECT_EQ(Ipv4(0xFFFFFFFF), "255.255.255.255");
  EXPECT_EQ(Ipv4(0xC0A80001), "192.168.0.1");
}

TEST(Ipv4Test, RoundTripsEveryAddressItWrites) {
  std::mt19937 random(42);
  for (int i = 0; i < 1000; ++i) {
    const uint32_t address = random();
    EXPECT_EQ(ParseIpv4(Ipv4(address)), address);
  }
}

TEST(Ipv6Test, CompressesTheFirstLongestZeroRun) {
  EXPECT_EQ(Ipv6("1:0:0:2:0:0:0:3"), "1:0:0:2::3");
  EXPECT_EQ(Ipv6("1:0:0:2:0:0:3:4"), "1::2:0:0:3:4");
  EXPECT_EQ(Ipv6("0:0:0:0:0:0:0:0"), "::");
  EXPECT_EQ(Ipv6("0:0:0:0:0:0:0:1"), "::1");
  EXPECT_EQ(Ipv6("1:0:0:0:0:0:0:0"), "1::");
}

TEST(Ipv6Test, DoesNotCompressASingleZero) {
  EXPECT_EQ(Ipv6("1:0:2:3:4:5:6:7"), "1:0:2:3:4:5:6:7");
}

TEST(Ipv6Test, LowercasesAndDropsLeadingZeros) {
  EXPECT_EQ(Ipv6("ABCD:00EF:0001:0:0:0:0:0010"), "abcd:ef:1::10");
}

TEST(Ipv6Test, ExpandsDoubleColonAnywhere) {
  EXPECT_EQ(Ipv6("::"), "::");
  EXPECT_EQ(Ipv6("1::"), "1::");
  EXPECT_EQ(Ipv6("::1:2"), "::1:2");
  EXPECT_EQ(Ipv6("1:2::3:4"), "1:2::3:4");
  EXPECT_EQ(Ipv6("1:2:3:4:5:6:7::"), "1:2:3:4:5:6:7:0");
}

TEST(Ipv6Test, ReadsAnIpv4Tail) {
  EXPECT_EQ(Ipv6("::ffff:1.2.3.4"), "::ffff:102:304");
  EXPECT_EQ(Ipv6("1:2:3:4:5:6:1.2.3.4"), "1:2:3:4:5:6:102:304");
}

TEST(Ipv6Test, RejectsMalformedAddresses) {
  for (const char* text :
       {"", ":", ":1", "1:", "1::2::3", ":::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7",
        "12345::", "g::", "::1.2.3", "::1.2.3.4.5", "::1.2.3.256", "::01.2.3.4",
        "1:2:3:4:5:6:7:1.2.3.4", "::1%eth0", "1:2:3:4:5:6:7:8::", "::1.2.3.4:5"}) {
    EXPECT_EQ(Ipv6(text), "<invalid>") << text;
  }
}

TEST(Ipv6Test, SerializationIsAFixedPoint) {
  std::mt19937 random(7);
  for (int i = 0; i < 2000; ++i) {
    Ipv6Address address;
    for (uint16_t& piece : address) piece = (random() % 3 == 0) ? random() : 0;
    std::string once;
    AppendIpv6(address, &once);
    EXPECT_EQ(ParseIpv6(once), address) << once;
  }
}

TEST(IpAddressTest, IsIpAddressOnlyForCanonicalForms) {
  EXPECT_TRUE(IsIpAddress("1.2.3.4"));
  EXPECT_TRUE(IsIpAddress("::1"));
  EXPECT_TRUE(IsIpAddress("[::1]"));
  EXPECT_FALSE(IsIpAddress("1.2.3"));
  EXPECT_FALSE(IsIpAddress("example.com"));
  EXPECT_FALSE(IsIpAddress(""));
}

}  // namespace
}  // namespace pagesieve::url::internal
