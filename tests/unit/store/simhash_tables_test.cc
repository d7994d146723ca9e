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

std::string Probe(const NearLayout& layout, uint64_t scope, int table, uint64_t fp) {
  std::string key(layout.key_size(), '\0');
  layout.EncodeKey(scope, table, fp, key.data());
  return key.substr(0, layout.probe_prefix_size());
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

TEST(NearLayoutTest, KeysDecodeToTheirFingerprint) {
  std::mt19937_64 rng(8);
  for (int k = 0; k <= NearLayout::kMaxDistance; ++k) {
    NearLayout layout = NearLayout::Create(k, 0).value();
    std::string key(layout.key_size(), '\0');
    for (int t = 0; t < layout.tables(); ++t) {
      const uint64_t fp = rng();
      layout.EncodeKey(rng(), t, fp, key.data());
      uint64_t decoded = 0;
      ASSERT_TRUE(layout.DecodeKey(key, &decoded));
      ASSERT_EQ(decoded, fp) << "k=" << k << " t=" << t;
    }
  }
}

TEST(NearLayoutTest, DecodeRefusesKeysOfAnotherShape) {
  NearLayout layout = NearLayout::Create(3, 0).value();
  uint64_t fp = 0;
  EXPECT_FALSE(layout.DecodeKey("short", &fp));
  std::string key(layout.key_size(), '\0');
  key[NearLayout::kScopeBytes] = static_cast<char>(layout.tables());  // no such table
  EXPECT_FALSE(layout.DecodeKey(key, &fp));
}

// The pigeonhole guarantee: a fingerprint within distance k of the query
// shares the query's probe prefix in at least one table.
TEST(NearLayoutTest, EveryNeighbourWithinDistanceSharesAProbe) {
  std::mt19937_64 rng(9);
  for (int k = 1; k <= NearLayout::kMaxDistance; ++k) {
    NearLayout layout = NearLayout::Create(k, 0).value();
    for (int i = 0; i < 200; ++i) {
      const uint64_t q = rng();
      const uint64_t near = FlipRandomBits(q, k, rng);
      bool shared = false;
      for (int t = 0; t < layout.tables() && !shared; ++t) {
        shared = Probe(layout, 1, t, q) == Probe(layout, 1, t, near);
      }
      ASSERT_TRUE(shared) << "k=" << k << " q=" << q << " near=" << near;
    }
  }
}

// Keys sharing a probe prefix are exactly those whose table prefix bits agree.
TEST(NearLayoutTest, ProbePrefixEqualsExactlyWhenPrefixBitsAgree) {
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
      EXPECT_EQ(Probe(layout, 5, t, a), Probe(layout, 5, t, same));
      EXPECT_NE(Probe(layout, 5, t, a), Probe(layout, 5, t, diff));
    }
  }
}

TEST(NearLayoutTest, ScopesGetDisjointProbes) {
  NearLayout layout = NearLayout::Create(3, 0).value();
  EXPECT_NE(Probe(layout, 1, 0, 42), Probe(layout, 2, 0, 42));
}

}  // namespace
}  // namespace pagesieve::store
