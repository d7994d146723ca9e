#include "routing/order_key.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace pagesieve::routing {
namespace {

OrderKey Key(int64_t t, std::string topic, int32_t p, int64_t o) {
  return OrderKey{EventTime::FromMillis(t), std::move(topic), PartitionId(p), Offset(o)};
}

TEST(OrderKeyTest, EventTimeComesFirstThenTopicPartitionAndOffset) {
  EXPECT_LT(Key(1, "z", 9, 9), Key(2, "a", 0, 0));
  EXPECT_LT(Key(5, "a", 9, 9), Key(5, "b", 0, 0));
  EXPECT_LT(Key(5, "a", 1, 9), Key(5, "a", 2, 0));
  EXPECT_LT(Key(5, "a", 1, 3), Key(5, "a", 1, 4));
  EXPECT_EQ(Key(5, "a", 1, 3), Key(5, "a", 1, 3));
}

TEST(OrderKeyTest, DecodesWhatItEncodes) {
  for (const OrderKey& k : {Key(0, "pages", 0, 0), Key(-1, "a", 3, 7),
                            Key(INT64_MIN, "x.y-z_1", INT32_MAX, INT64_MAX),
                            Key(1'700'000'000'000, "crawl.fetched", 11, 123'456'789)}) {
    StatusOr<OrderKey> back = DecodeOrderKey(EncodeOrderKey(k));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, k) << ToString(k);
  }
}

TEST(OrderKeyTest, EncodedBytesSortAsTheKeysDo) {
  std::mt19937_64 rng(7);
  const std::vector<std::string> topics = {"a", "ab", "b", "pages", "pages-2"};
  std::vector<OrderKey> keys;
  for (int i = 0; i < 2000; ++i) {
    // Small ranges, so that ties on the leading fields are common.
    keys.push_back(Key(static_cast<int64_t>(rng() % 7) - 3, topics[rng() % topics.size()],
                       static_cast<int32_t>(rng() % 3), static_cast<int64_t>(rng() % 5) - 1));
  }
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    const OrderKey& a = keys[i];
    const OrderKey& b = keys[i + 1];
    const std::string ea = EncodeOrderKey(a);
    const std::string eb = EncodeOrderKey(b);
    EXPECT_EQ(a < b, ea < eb) << ToString(a) << " vs " << ToString(b);
    EXPECT_EQ(a == b, ea == eb) << ToString(a) << " vs " << ToString(b);
  }
}

TEST(OrderKeyTest, RefusesBytesItDidNotWrite) {
  const std::string good = EncodeOrderKey(Key(1, "pages", 2, 3));
  EXPECT_FALSE(DecodeOrderKey("").ok());
  EXPECT_FALSE(DecodeOrderKey(good.substr(0, good.size() - 1)).ok());
  EXPECT_FALSE(DecodeOrderKey(good + "x").ok());
  std::string no_nul = good;
  no_nul[8 + 5] = 'x';  // the topic's terminator
  EXPECT_FALSE(DecodeOrderKey(no_nul).ok());
}

}  // namespace
}  // namespace pagesieve::routing
