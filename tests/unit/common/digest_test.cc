#include "common/digest.h"

#include <gtest/gtest.h>

namespace pagesieve {
namespace {

TEST(Digest128Test, HexIsLowercaseAndFullWidth) {
  Digest128 d;
  d.bytes[0] = 0x0a;
  d.bytes[15] = 0xff;
  EXPECT_EQ(d.Hex(), "0a0000000000000000000000000000ff");
}

TEST(Digest128Test, ViewRoundTripsAndOrders) {
  Digest128 a;
  for (int i = 0; i < 16; ++i) a.bytes[i] = static_cast<uint8_t>(i * 17);
  Digest128 b = Digest128::FromView(a.View());
  EXPECT_EQ(a, b);
  b.bytes[3] ^= 1;
  EXPECT_NE(a, b);
  EXPECT_NE(std::hash<Digest128>()(a), std::hash<Digest128>()(b));
}

}  // namespace
}  // namespace pagesieve
