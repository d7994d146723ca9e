#include "store/simhash_tables.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <string>

namespace pagesieve::store {
namespace {

uint64_t FlipRandomBits(uint64_t fp, int n, std::mt19937_64& rng) {
  uint64_t mask = 0;
  while (std::popcount(mask) < n) mask |= uint64_t{1} << (rng() % 64);
  return fp ^ mask;
}

TEST(BinomialTest, MatchesPascalsTriangle) {
  for (int n = 1; n <= 30; ++n) {
    for (int k = 1; k < n; ++k) {
      EXPECT_EQ(Binomial(n, k), Binomial(n - 1, k - 1) + Binomial(n - 1, k)) << n << " " << k;
    }
  }
  EXPECT_EQ(Binomial(5, 0), 1u);
  EXPECT_EQ(Binomial(5, 6), 0u);
}

TEST(NearLayoutTest, DerivedLayoutsReachTheTargetPrefixOrTheTableCap) {
  for (int k = 1; k <= NearLayout::kMaxDistance; ++k) {
    StatusOr<NearLayout> layout = NearLayout::Create(k, 0);
    ASSERT_TRUE(layout.ok()) << layout.status().ToString();
    const int b = layout->blocks();
    EXPECT_EQ(static_cast<uint64_t>(layout->tables()), Binomial(b, k));
    EXPECT_LE(layout->tables(), NearLayout::kMaxTables);
    const bool reached = layout->min_prefix_bits() >= NearLayout::kTargetPrefixBits;
    const bool capped = Binomial(b + 1, k) > NearLayout::kMaxTables;
    EXPECT_TRUE(reached || capped) << "k=" << k << " b=" << b;
    // The fewest blocks that do: one block less must fall short.
    if (reached && b > k + 1) {
      EXPECT_LT(NearLayout::FromBlocks(k, b - 1)->min_prefix_bits(), NearLayout::kTargetPrefixBits);
    }
  }
}

TEST(NearLayoutTest, DistanceZeroIsOneTableOverTheWholeFingerprint) {
  NearLayout layout = NearLayout::Create(0, 0).value();
  EXPECT_EQ(layout.tables(), 1);
  EXPECT_EQ(layout.prefix_bits(0), 64);
}

TEST(NearLayoutTest, ExplicitTableBoundTakesTheMostBlocksThatFit) {
  NearLayout layout = NearLayout::Create(3, 20).value();
  EXPECT_EQ(layout.tables(), 20);  // C(6, 3)
  layout = NearLayout::Create(3, 19).value();
  EXPECT_EQ(layout.tables(), 10);  // C(5, 3); C(6, 3) = 20 does not fit
  layout = NearLayout::Create(3, 0).value();
  EXPECT_EQ(layout.tables(), 4);  // derived: C(4, 3), one 16-bit block each
}

TEST(NearLayoutTest, RejectsTooFewTablesNamingTheKey) {
  StatusOr<NearLayout> layout = NearLayout::Create(3, 3);
  ASSERT_FALSE(layout.ok());
  EXPECT_NE(layout.status().message().find("near.tables"), std::string::npos);
}

TEST(NearLayoutTest, RejectsDistancesOutOfRange) {
  EXPECT_FALSE(NearLayout::Create(-1, 0).ok());
  EXPECT_FALSE(NearLayout::Create(NearLayout::kMaxDistance + 1, 0).ok());
  EXPECT_FALSE(NearLayout::FromBlocks(3, 3).ok());
  EXPECT_FALSE(NearLayout::FromBlocks(3, 65).ok());
}

TEST(NearLayoutTest, UnpermuteInvertsPermuteInEveryTable) {
  std::mt19937_64 rng(7);
  for (int k = 0; k <= NearLayout::kMaxDistance; ++k) {
    NearLayout layout = NearLayout::Create(k, 0).value();
    for (int t = 0; t < layout.tables(); ++t) {
      for (int i = 0; i < 50; ++i) {
        const uint64_t fp = rng();
        ASSERT_EQ(layout.Unpermute(t, layout.Permute(t, fp)), fp) << "k=" << k << " t=" << t;
      }
    }
  }
}

// The pigeonhole guarantee: a fingerprint within distance k of the query
// shares the query's prefix in at least one table.
TEST(NearLayoutTest, EveryNeighbourWithinDistanceSharesAProbe) {
  std::mt19937_64 rng(9);
  for (int k = 1; k <= NearLayout::kMaxDistance; ++k) {
    NearLayout layout = NearLayout::Create(k, 0).value();
    for (int i = 0; i < 200; ++i) {
      const uint64_t q = rng();
      const uint64_t near = FlipRandomBits(q, k, rng);
      bool shared = false;
      for (int t = 0; t < layout.tables() && !shared; ++t) {
        shared = layout.Prefix(t, q) == layout.Prefix(t, near);
      }
      ASSERT_TRUE(shared) << "k=" << k << " q=" << q << " near=" << near;
    }
  }
}

// Fingerprints share a table's prefix exactly when their permuted top bits agree.
TEST(NearLayoutTest, PrefixEqualsExactlyWhenPrefixBitsAgree) {
  std::mt19937_64 rng(10);
  NearLayout layout = NearLayout::Create(3, 0).value();
  for (int t = 0; t < layout.tables(); ++t) {
    const int p = layout.prefix_bits(t);
    for (int i = 0; i < 200; ++i) {
      const uint64_t a = rng();
      // b agrees with a on the table's prefix, or differs in one prefix bit.
      const uint64_t pa = layout.Permute(t, a);
      const uint64_t rest_mask = p == 64 ? 0 : (~uint64_t{0} >> p);
      const uint64_t same = layout.Unpermute(t, (pa & ~rest_mask) | (rng() & rest_mask));
      const uint64_t diff = layout.Unpermute(t, pa ^ (uint64_t{1} << (63 - rng() % p)));
      EXPECT_EQ(layout.Prefix(t, a), layout.Prefix(t, same));
      EXPECT_NE(layout.Prefix(t, a), layout.Prefix(t, diff));
    }
  }
}

}  // namespace
}  // namespace pagesieve::store
