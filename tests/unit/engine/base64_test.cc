#include "engine/base64.h"

#include <gtest/gtest.h>

#include <random>

namespace pagesieve::engine {
namespace {

TEST(Base64Test, DecodesRfc4648Vectors) {
  EXPECT_EQ(*DecodeBase64(""), "");
  EXPECT_EQ(*DecodeBase64("Zg=="), "f");
  EXPECT_EQ(*DecodeBase64("Zm8="), "fo");
  EXPECT_EQ(*DecodeBase64("Zm9v"), "foo");
  EXPECT_EQ(*DecodeBase64("Zm9vYmFy"), "foobar");
}

TEST(Base64Test, AcceptsMissingPaddingAndLineBreaks) {
  EXPECT_EQ(*DecodeBase64("Zg"), "f");
  EXPECT_EQ(*DecodeBase64("Zm8"), "fo");
  EXPECT_EQ(*DecodeBase64("Zm9v\nYmFy\n"), "foobar");
}

TEST(Base64Test, RejectsGarbage) {
  EXPECT_FALSE(DecodeBase64("Zm9v!!!!").ok());
  EXPECT_FALSE(DecodeBase64("@@@@").ok());
}

TEST(Base64Test, RoundTripsBinary) {
  std::mt19937 rng(7);
  for (size_t len : {1u, 2u, 3u, 57u, 1000u, 65537u}) {
    std::string bytes(len, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    EXPECT_EQ(*DecodeBase64(EncodeBase64(bytes)), bytes) << len;
  }
}

}  // namespace
}  // namespace pagesieve::engine
