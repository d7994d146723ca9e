#include "store/lsh_index.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include "common/split_mix64.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::Ms;

constexpr int kBands = 5;

std::vector<uint64_t> RandomKeys(std::mt19937_64& rng) {
  std::vector<uint64_t> keys(kBands);
  for (uint64_t& k : keys) k = rng();
  return keys;
}

// Band keys are hashes: small numbers would all share a tag.
uint64_t Key(uint64_t n) { return SplitMix64(n); }
std::vector<uint64_t> KeysOf(uint64_t n) { return std::vector<uint64_t>(kBands, Key(n)); }

std::set<uint64_t> Collected(const LshIndex& index, const std::vector<uint64_t>& keys) {
  std::vector<uint64_t> out;
  index.Collect(keys, &out);
  return std::set<uint64_t>(out.begin(), out.end());
}

// Entries whose keys share some bands with others (as near copies do),
// enough that the buckets grow many times, over several generations: each
// query finds exactly the entries sharing a band key with it (random 64-bit
// keys share no tag by chance at this size).
TEST(LshIndexTest, FindsExactlyTheEntriesSharingABandKey) {
  LshIndex index(kBands, Duration(1000));
  std::mt19937_64 rng(5);
  std::map<uint64_t, std::vector<uint64_t>> stored;  // simhash -> keys
  std::vector<std::vector<uint64_t>> all;
  for (int i = 0; i < 30'000; ++i) {
    std::vector<uint64_t> keys = RandomKeys(rng);
    if (i % 3 != 0 && !all.empty()) keys[rng() % kBands] = all[rng() % all.size()][rng() % kBands];
    const uint64_t simhash = rng();
    ASSERT_TRUE(index.Add(simhash, keys, Ms(i / 8)));  // generations of 8000 adds
    stored[simhash] = keys;
    all.push_back(keys);
  }
  ASSERT_EQ(index.size(), stored.size());
  EXPECT_EQ(index.generations(), 4u);
  for (int q = 0; q < 300; ++q) {
    std::vector<uint64_t> query = RandomKeys(rng);
    query[q % kBands] = all[rng() % all.size()][q % kBands];
    std::set<uint64_t> want;
    for (const auto& [simhash, keys] : stored) {
      for (int b = 0; b < kBands; ++b) {
        if (keys[b] == query[b]) want.insert(simhash);
      }
    }
    ASSERT_FALSE(want.empty());
    ASSERT_EQ(Collected(index, query), want) << "query " << q;
  }
}

// A key equal in another band is no match: band i's key is only compared
// with band i's.
// A tag is 31 bits of a key below its top 5: keys equal there (and in
// their bucket) are listed, and the caller's comparison of the sketches
// drops them. Real band keys are hashes, so this is rare (see lsh_index.h).
TEST(LshIndexTest, KeysEqualInTheirTagBitsAreListedToo) {
  LshIndex index(kBands, Duration(1000));
  const uint64_t low_bits_differ = Key(1) ^ 0xfffffff;  // bits 0..27: not in the tag
  ASSERT_TRUE(index.Add(42, KeysOf(1), Ms(0)));
  EXPECT_EQ(Collected(index, std::vector<uint64_t>(kBands, low_bits_differ)),
            std::set<uint64_t>{42});
  EXPECT_TRUE(Collected(index, std::vector<uint64_t>(kBands, Key(1) ^ (1ull << 28))).empty());
}

TEST(LshIndexTest, KeysMatchOnlyInTheirOwnBand) {
  LshIndex index(kBands, Duration(1000));
  const std::vector<uint64_t> keys = {Key(1), Key(2), Key(3), Key(4), Key(5)};
  ASSERT_TRUE(index.Add(42, keys, Ms(0)));
  EXPECT_EQ(Collected(index, {Key(9), Key(9), Key(3), Key(9), Key(9)}), std::set<uint64_t>{42});
  EXPECT_TRUE(Collected(index, {Key(2), Key(3), Key(4), Key(5), Key(1)}).empty());
}

TEST(LshIndexTest, DropsWholeGenerationsAndRefusesTheirLateAdds) {
  LshIndex index(kBands, Duration(1000));
  const std::vector<uint64_t> a = KeysOf(1), b = KeysOf(2), c = KeysOf(3);
  ASSERT_TRUE(index.Add(10, a, Ms(999)));   // generation 0: [0, 1000)
  ASSERT_TRUE(index.Add(20, b, Ms(1000)));  // generation 1
  ASSERT_TRUE(index.Add(30, c, Ms(-1)));    // generation -1: before the epoch
  EXPECT_EQ(index.generations(), 3u);
  index.DropBefore(Ms(999));  // something indexed at 999 may still be live
  EXPECT_EQ(Collected(index, a), std::set<uint64_t>{10});
  EXPECT_TRUE(Collected(index, c).empty());
  index.DropBefore(Ms(1000));
  EXPECT_TRUE(Collected(index, a).empty());
  EXPECT_EQ(Collected(index, b), std::set<uint64_t>{20});
  EXPECT_EQ(index.size(), 1u);
  EXPECT_TRUE(index.Add(40, a, Ms(500)));  // a dropped generation: ignored
  EXPECT_TRUE(Collected(index, a).empty());
  EXPECT_EQ(index.size(), 1u);
}

// An entry indexed again in a later generation (a touch) is found through
// both until the first goes, then through the second alone.
TEST(LshIndexTest, ReindexedEntrySurvivesItsFirstGeneration) {
  LshIndex index(kBands, Duration(1000));
  const std::vector<uint64_t> keys = KeysOf(7);
  ASSERT_TRUE(index.Add(42, keys, Ms(0)));
  ASSERT_TRUE(index.Add(42, keys, Ms(5000)));
  std::vector<uint64_t> out;
  index.Collect(keys, &out);
  EXPECT_EQ(out.size(), 2u * kBands);  // once per band and generation
  index.DropBefore(Ms(4000));
  out.clear();
  index.Collect(keys, &out);
  EXPECT_EQ(out, std::vector<uint64_t>(kBands, 42));
}

// A generation 32 widths newer claims the slot of an old one, which cannot
// be live any more: its entries go, and its ids are handed out again.
TEST(LshIndexTest, ANewGenerationInAnOldSlotEvictsIt) {
  LshIndex index(kBands, Duration(1000));
  ASSERT_TRUE(index.Add(1, KeysOf(1), Ms(0)));
  ASSERT_TRUE(index.Add(2, KeysOf(2), Ms(32'000)));
  EXPECT_TRUE(Collected(index, KeysOf(1)).empty());
  EXPECT_EQ(Collected(index, KeysOf(2)), std::set<uint64_t>{2});
  EXPECT_EQ(index.size(), 1u);
  EXPECT_EQ(index.generations(), 1u);
}

// Freed ids are reused: the entry table does not grow with turnover, and the
// buckets shrink back when most entries go.
TEST(LshIndexTest, MemoryFollowsTheLiveEntries) {
  LshIndex index(kBands, Duration(1000));
  std::mt19937_64 rng(9);
  const size_t empty = index.MemoryBytes();
  for (int i = 0; i < 50'000; ++i) ASSERT_TRUE(index.Add(rng(), RandomKeys(rng), Ms(0)));
  const size_t full = index.MemoryBytes();
  // kBands words of 8 bytes and an entry table of 9 bytes per entry, plus
  // spare capacity and bucket headers.
  EXPECT_GT(full, 50'000u * (kBands * 8 + 9));
  EXPECT_LT(full, 50'000u * (kBands * 8 + 9) * 3 / 2);
  for (int round = 1; round <= 3; ++round) {
    for (int i = 0; i < 50'000; ++i) {
      ASSERT_TRUE(index.Add(rng(), RandomKeys(rng), Ms(1000 * round)));
    }
    index.DropBefore(Ms(1000 * round));
    EXPECT_EQ(index.size(), 50'000u);
    EXPECT_LT(index.MemoryBytes(), full * 3 / 2) << "round " << round;
  }
  index.DropBefore(Ms(10'000));
  EXPECT_EQ(index.size(), 0u);
  EXPECT_LT(index.MemoryBytes(), empty + 4096);
}

// Keys whose homes are all the last one pile up past the end of the table:
// inserts there grow its tail, and every one stays findable.
TEST(LshIndexTest, RunsPastTheLastHomeSpillIntoTheTail) {
  LshIndex index(kBands, Duration(1000));
  std::vector<std::vector<uint64_t>> keys;
  for (uint64_t i = 0; i < 2000; ++i) {
    keys.push_back(std::vector<uint64_t>(kBands, ~uint64_t{0} - (SplitMix64(i) >> 40 << 28)));
    ASSERT_TRUE(index.Add(i, keys.back(), Ms(0)));
  }
  for (uint64_t i = 0; i < 2000; ++i) {
    EXPECT_TRUE(Collected(index, keys[i]).contains(i)) << i;
  }
}

// The rebuild at open stages its entries: after Flush() (and across the
// automatic flushes of a long load, a growth and a generation drop) the
// index answers as one built by Add().
TEST(LshIndexTest, StagedEntriesAnswerAsAddedOnes) {
  LshIndex staged(kBands, Duration(1000)), added(kBands, Duration(1000));
  std::mt19937_64 rng(17);
  std::vector<std::vector<uint64_t>> keys;
  for (int i = 0; i < 150'000; ++i) {
    keys.push_back(RandomKeys(rng));
    if (i % 2 == 1) keys.back()[i % kBands] = keys[rng() % keys.size()][i % kBands];
    const EventTime t = Ms(i < 1000 ? 0 : 5000);  // generation 0 goes at DropBefore(1000)
    ASSERT_TRUE(staged.Stage(i, keys.back(), t));
    ASSERT_TRUE(added.Add(i, keys.back(), t));
  }
  staged.DropBefore(Ms(1000));  // flushes, then drops the first thousand
  added.DropBefore(Ms(1000));
  staged.Flush();
  EXPECT_EQ(staged.size(), added.size());
  for (int q = 0; q < 500; ++q) {
    const std::vector<uint64_t>& query = keys[rng() % keys.size()];
    ASSERT_EQ(Collected(staged, query), Collected(added, query)) << q;
  }
  EXPECT_FALSE(Collected(staged, keys[5]).contains(5));  // in the dropped generation
  EXPECT_TRUE(Collected(staged, keys[5000]).contains(5000));
}

TEST(LshIndexTest, ReserveSizesTheBucketsWithoutChangingAnswers) {
  LshIndex reserved(kBands, Duration(1000)), grown(kBands, Duration(1000));
  reserved.Reserve(40'000);
  std::mt19937_64 rng(13);
  std::vector<std::vector<uint64_t>> keys;
  for (int i = 0; i < 40'000; ++i) {
    keys.push_back(RandomKeys(rng));
    ASSERT_TRUE(reserved.Add(i, keys.back(), Ms(0)));
    ASSERT_TRUE(grown.Add(i, keys.back(), Ms(0)));
  }
  for (int q = 0; q < 100; ++q) {
    const std::vector<uint64_t>& query = keys[rng() % keys.size()];
    EXPECT_EQ(Collected(reserved, query), Collected(grown, query));
  }
}

// A routed near owner's share of the bands (NearRows): an entry is found
// by the bands it is in and no other, and the tables are sized by the words
// they hold, not by the entries.
TEST(LshIndexTest, AShareOfTheBandsIsFoundByThoseBandsAndSizedByThem) {
  LshIndex share(kBands, Duration(1000)), every(kBands, Duration(1000));
  share.Reserve(80'000);
  every.Reserve(80'000);
  std::mt19937_64 rng(17);
  std::vector<std::vector<uint64_t>> keys;
  for (int i = 0; i < 80'000; ++i) {
    keys.push_back(RandomKeys(rng));
    NearRows rows = NearRows::Some();
    rows.AddBand(i % kBands);
    ASSERT_TRUE(share.Stage(i, keys.back(), Ms(0), rows));
    ASSERT_TRUE(every.Stage(i, keys.back(), Ms(0)));
  }
  share.Flush();
  every.Flush();
  EXPECT_EQ(share.rows(), 80'000u);
  EXPECT_EQ(every.rows(), 80'000u * kBands);
  EXPECT_LT(share.MemoryBytes(), every.MemoryBytes() / 3);
  for (int q = 0; q < 200; ++q) {
    const int i = static_cast<int>(rng() % keys.size());
    std::vector<uint64_t> query = RandomKeys(rng);
    const int held = i % kBands;
    query[held] = keys[i][held];
    EXPECT_TRUE(Collected(share, query).contains(i)) << i;
    query[held] = RandomKeys(rng)[0];
    query[(held + 1) % kBands] = keys[i][(held + 1) % kBands];  // a band it is not in here
    EXPECT_FALSE(Collected(share, query).contains(i)) << i;
    EXPECT_TRUE(Collected(every, query).contains(i)) << i;
  }
}

// Entries without sketches are not indexed: a reservation for them holds
// no memory.
TEST(LshIndexTest, AReservationForNothingIndexedHoldsNoMemory) {
  LshIndex reserved(kBands, Duration(1000)), fresh(kBands, Duration(1000));
  reserved.Reserve(1'000'000);
  reserved.Flush();  // the rebuild at open, over entries none of which had a sketch
  EXPECT_EQ(reserved.MemoryBytes(), fresh.MemoryBytes());
  std::mt19937_64 rng(23);
  const std::vector<uint64_t> keys = RandomKeys(rng);
  ASSERT_TRUE(reserved.Add(7, keys, Ms(0)));
  EXPECT_TRUE(Collected(reserved, keys).contains(7));
}

// A reservation short of what comes is no limit: the tables grow to fit.
TEST(LshIndexTest, AShortReservationStillFitsEveryStagedEntry) {
  LshIndex reserved(kBands, Duration(1000)), added(kBands, Duration(1000));
  reserved.Reserve(10);
  std::mt19937_64 rng(19);
  std::vector<std::vector<uint64_t>> keys;
  for (int i = 0; i < 100'000; ++i) {
    keys.push_back(RandomKeys(rng));
    ASSERT_TRUE(reserved.Stage(i, keys.back(), Ms(0)));
    ASSERT_TRUE(added.Add(i, keys.back(), Ms(0)));
  }
  reserved.Flush();
  for (int q = 0; q < 200; ++q) {
    const std::vector<uint64_t>& query = keys[rng() % keys.size()];
    ASSERT_EQ(Collected(reserved, query), Collected(added, query)) << q;
  }
  EXPECT_LT(reserved.MemoryBytes(), 2 * added.MemoryBytes());
}

}  // namespace
}  // namespace pagesieve::store
