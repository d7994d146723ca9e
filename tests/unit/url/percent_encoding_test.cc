#include "url/percent_encoding.h"

#include <gtest/gtest.h>

#include <random>

namespace pagesieve::url::internal {
namespace {

std::string Normalize(std::string_view in) {
  std::string out;
  AppendNormalized(in, &out);
  return out;
}

TEST(PercentEncodingTest, CopiesPlainText) {
  EXPECT_EQ(Normalize("abc-._~!$&'()*+,;=:@/?[]\\"), "abc-._~!$&'()*+,;=:@/?[]\\");
}

TEST(PercentEncodingTest, DecodesEveryUnreservedEscape) {
  for (int c = 0; c < 256; ++c) {
    char escape[4];
    std::snprintf(escape, sizeof(escape), "%%%02x", c);
    const bool unreserved = IsUnreserved(static_cast<unsigned char>(c));
    char upper[4];
    std::snprintf(upper, sizeof(upper), "%%%02X", c);
    EXPECT_EQ(Normalize(escape), unreserved ? std::string(1, static_cast<char>(c)) : upper) << c;
  }
}

TEST(PercentEncodingTest, EncodesEveryByteThatIsNotSafe) {
  for (int c = 0; c < 256; ++c) {
    const std::string in(1, static_cast<char>(c));
    const bool encoded =
        c <= 0x20 || c >= 0x7f || std::string_view("\"<>`{}|^").find(c) != std::string_view::npos;
    if (c == '%') continue;
    char escape[4];
    std::snprintf(escape, sizeof(escape), "%%%02X", c);
    EXPECT_EQ(Normalize(in), encoded ? escape : in) << c;
  }
}

TEST(PercentEncodingTest, EscapesALonePercent) {
  EXPECT_EQ(Normalize("%"), "%25");
  EXPECT_EQ(Normalize("a%"), "a%25");
  EXPECT_EQ(Normalize("%4"), "%254");
  EXPECT_EQ(Normalize("%g1"), "%25g1");
  EXPECT_EQ(Normalize("%1g"), "%251g");
  EXPECT_EQ(Normalize("%%41"), "%25A");
}

TEST(PercentEncodingTest, DoesNotDecodeTwice) { EXPECT_EQ(Normalize("%2541"), "%2541"); }

TEST(PercentEncodingTest, IsAFixedPointOnRandomBytes) {
  std::mt19937 random(1234);
  const std::string alphabet = "%%%aF0-9gz/;=&+ \x01\x7f\xc3\xa9\"<>";
  for (int i = 0; i < 5000; ++i) {
    std::string in;
    const int length = static_cast<int>(random() % 24);
    for (int k = 0; k < length; ++k) in.push_back(alphabet[random() % alphabet.size()]);
    const std::string once = Normalize(in);
    EXPECT_EQ(Normalize(once), once) << in;
  }
}

}  // namespace
}  // namespace pagesieve::url::internal
