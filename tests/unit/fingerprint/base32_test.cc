#include "fingerprint/base32.h"

#include <gtest/gtest.h>

namespace pagesieve::fingerprint {
namespace {

// RFC 4648 section 10 test vectors.
TEST(Base32Test, EncodesRfc4648Vectors) {
  EXPECT_EQ(Base32Encode(""), "");
  EXPECT_EQ(Base32Encode("f"), "MY======");
  EXPECT_EQ(Base32Encode("fo"), "MZXQ====");
  EXPECT_EQ(Base32Encode("foo"), "MZXW6===");
  EXPECT_EQ(Base32Encode("foob"), "MZXW6YQ=");
  EXPECT_EQ(Base32Encode("fooba"), "MZXW6YTB");
  EXPECT_EQ(Base32Encode("foobar"), "MZXW6YTBOI======");
}

TEST(Base32Test, EncodesHighBytes) {
  EXPECT_EQ(Base32Encode(std::string(5, '\xff')), "77777777");
  EXPECT_EQ(Base32Encode(std::string(5, '\0')), "AAAAAAAA");
}

}  // namespace
}  // namespace pagesieve::fingerprint
