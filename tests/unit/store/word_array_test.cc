#include "store/word_array.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

namespace pagesieve::store {
namespace {

// Small arrays come from the allocator, large ones from the kernel: both
// start zeroed and on a cache line.
TEST(WordArrayTest, StartsZeroedAndAligned) {
  for (size_t words : {size_t{1}, size_t{1000}, size_t{3} << 20}) {
    WordArray a(words);
    ASSERT_EQ(a.size(), words);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a.data()) % 64, 0u) << words;
    EXPECT_GE(a.bytes(), words * sizeof(uint64_t));
    for (size_t i = 0; i < words; i += 4099) EXPECT_EQ(a[i], 0u) << i;
    EXPECT_EQ(a[words - 1], 0u);
    a[words - 1] = 7;  // the whole range is writable
    EXPECT_EQ(a[words - 1], 7u);
  }
}

TEST(WordArrayTest, MovesHandOverTheWords) {
  WordArray a(size_t{1} << 20);  // 8 MiB: mapped
  a[5] = 42;
  WordArray b = std::move(a);
  EXPECT_EQ(b[5], 42u);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(a.size(), 0u);
  WordArray c(10);
  c = std::move(b);
  EXPECT_EQ(c[5], 42u);
  EXPECT_EQ(c.size(), size_t{1} << 20);
}

}  // namespace
}  // namespace pagesieve::store
