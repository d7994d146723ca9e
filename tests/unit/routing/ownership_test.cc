#include "routing/ownership.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include "store/lsh_bands.h"
#include "store/simhash_tables.h"

namespace pagesieve::routing {
namespace {

Digest128 RandomDigest(std::mt19937_64& rng) {
  Digest128 d;
  for (auto& b : d.bytes) b = static_cast<uint8_t>(rng());
  return d;
}

// An encoded sketch as lib/store reads it (store/lsh_bands.h): version,
// bits, slots (2 bytes), set size (4 bytes), then 256 one-byte slots.
std::string RandomSketch(std::mt19937_64& rng) {
  std::string sketch = {5, 8, 0, 1, 0, 0, 0, 0};
  for (int i = 0; i < 256; ++i) sketch.push_back(static_cast<char>(rng()));
  return sketch;
}

TEST(OwnershipTest, RefusesATopicWithoutPartitions) {
  EXPECT_FALSE(Ownership::Create(0).ok());
  EXPECT_FALSE(Ownership::Create(-3).ok());
  EXPECT_FALSE(Ownership::Create(int64_t{1} << 31).ok());
  EXPECT_TRUE(Ownership::Create(1).ok());
}

// Computed once by this code (see PlacementIsPinned).
constexpr int32_t kPinnedJump1 = 55;
constexpr int32_t kPinnedUrl = 14;
constexpr int32_t kPinnedContent = 35;
constexpr int32_t kPinnedTable = 45;
constexpr int32_t kPinnedBand = 7;

// The placement is the layout of routed state: a change moves every entry
// of every deployment. These values were computed once by this code; if
// this test fails, the change needs a migration, not a new expectation.
TEST(OwnershipTest, PlacementIsPinned) {
  Digest128 url;
  for (size_t i = 0; i < url.bytes.size(); ++i) url.bytes[i] = static_cast<uint8_t>(i);
  const Ownership o = *Ownership::Create(64);
  EXPECT_EQ(JumpConsistentHash(0, 64), 0);
  EXPECT_EQ(JumpConsistentHash(1, 64), kPinnedJump1);
  EXPECT_EQ(o.OfUrl("", url).value(), kPinnedUrl);
  EXPECT_EQ(o.OfContent("example.com", url).value(), kPinnedContent);
  EXPECT_EQ(o.OfTable("", 2, 0xabcd).value(), kPinnedTable);
  EXPECT_EQ(o.OfBand("", 17, 0x1234567890abcdefull).value(), kPinnedBand);
}

TEST(OwnershipTest, OneKeyHasOneOwnerAndKindsAndScopesAreSeparate) {
  std::mt19937_64 rng(1);
  const Ownership o = *Ownership::Create(16);
  int same_kind_differs = 0;
  int same_scope_differs = 0;
  for (int i = 0; i < 1000; ++i) {
    const Digest128 d = RandomDigest(rng);
    EXPECT_EQ(o.OfUrl("a.com", d), o.OfUrl("a.com", d));
    same_kind_differs += o.OfUrl("a.com", d) != o.OfContent("a.com", d);
    same_scope_differs += o.OfUrl("a.com", d) != o.OfUrl("b.com", d);
  }
  // Independent placements agree 1 time in 16.
  EXPECT_GT(same_kind_differs, 850);
  EXPECT_GT(same_scope_differs, 850);
}

// The bound: no partition holds more than about 2/N of the entries
// of a stream spread over N partitions. Keys are random digests, as URL
// and content digests are.
TEST(OwnershipTest, NoPartitionHoldsMoreThanTwiceItsShare) {
  std::mt19937_64 rng(2);
  constexpr int kKeys = 200'000;
  for (int n : {1, 2, 4, 8, 16, 100}) {
    const Ownership o = *Ownership::Create(n);
    std::vector<int> url(n), content(n), table(n), band(n);
    for (int i = 0; i < kKeys; ++i) {
      const Digest128 d = RandomDigest(rng);
      ++url[o.OfUrl("", d).value()];
      ++content[o.OfContent("", d).value()];
      ++table[o.OfTable("", i % 4, rng() >> 48).value()];
      ++band[o.OfBand("", i % 33, rng()).value()];
    }
    for (const auto* counts : {&url, &content, &table, &band}) {
      const int most = *std::max_element(counts->begin(), counts->end());
      const int least = *std::min_element(counts->begin(), counts->end());
      EXPECT_LE(most, 2 * kKeys / n) << n << " partitions";
      // Much tighter in fact: within 5 standard deviations of the even
      // share, as independent uniform placement would be.
      const double share = static_cast<double>(kKeys) / n;
      const double sigma = std::sqrt(share * (1 - 1.0 / n));
      EXPECT_LE(most, share + 5 * sigma) << n << " partitions";
      EXPECT_GE(least, share - 5 * sigma) << n << " partitions";
    }
  }
}

TEST(OwnershipTest, AddingAPartitionMovesKeysOnlyToIt) {
  std::mt19937_64 rng(3);
  constexpr int kKeys = 100'000;
  const Ownership before = *Ownership::Create(8);
  const Ownership after = *Ownership::Create(9);
  int moved = 0;
  for (int i = 0; i < kKeys; ++i) {
    const Digest128 d = RandomDigest(rng);
    const PartitionId a = before.OfContent("", d);
    const PartitionId b = after.OfContent("", d);
    if (a != b) {
      ++moved;
      EXPECT_EQ(b.value(), 8);
    }
  }
  // About 1/9 of the keys move.
  EXPECT_NEAR(static_cast<double>(moved) / kKeys, 1.0 / 9, 0.01);
}

TEST(OwnershipTest, NearProbesCarryEveryTableAndBandKeyOnceGroupedByOwner) {
  const store::NearLayout layout = *store::NearLayout::Create(3, 0);
  const store::LshBands bands = *store::LshBands::Create(256, 8, 0.8);
  std::mt19937_64 rng(4);
  const std::string sketch = RandomSketch(rng);
  ASSERT_TRUE(bands.Fits(sketch)) << "the test's sketch must fit the bands";
  std::vector<uint64_t> band_keys;
  ASSERT_TRUE(bands.Keys(sketch, &band_keys));
  const uint64_t simhash = rng();

  for (int n : {1, 2, 8, 64}) {
    const Ownership o = *Ownership::Create(n);
    const std::vector<NearProbe> probes =
        PlanNearProbes(o, "s", simhash, sketch, layout, &bands);
    ASSERT_LE(probes.size(), static_cast<size_t>(std::min(n, layout.tables() + bands.bands())));
    std::set<std::pair<int, int>> seen;  // (kind, index)
    for (size_t i = 0; i < probes.size(); ++i) {
      if (i > 0) {
        EXPECT_LT(probes[i - 1].owner, probes[i].owner);
      }
      for (const NearKey& k : probes[i].keys) {
        EXPECT_TRUE(seen.insert({static_cast<int>(k.kind), k.index}).second);
        if (k.kind == KeyKind::kTable) {
          EXPECT_EQ(k.value, layout.Prefix(k.index, simhash));
          EXPECT_EQ(o.OfTable("s", k.index, k.value), probes[i].owner);
        } else {
          EXPECT_EQ(k.value, band_keys[k.index]);
          EXPECT_EQ(o.OfBand("s", k.index, k.value), probes[i].owner);
        }
      }
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(layout.tables() + bands.bands()));
  }
}

TEST(OwnershipTest, ASketchThatDoesNotFitTheBandsSendsOnlyTableKeys) {
  const store::NearLayout layout = *store::NearLayout::Create(3, 0);
  const store::LshBands bands = *store::LshBands::Create(256, 8, 0.8);
  const Ownership o = *Ownership::Create(4);
  size_t keys = 0;
  for (const NearProbe& p : PlanNearProbes(o, "s", 42, "short", layout, &bands)) {
    for (const NearKey& k : p.keys) EXPECT_EQ(k.kind, KeyKind::kTable);
    keys += p.keys.size();
  }
  EXPECT_EQ(keys, static_cast<size_t>(layout.tables()));
}

}  // namespace
}  // namespace pagesieve::routing
