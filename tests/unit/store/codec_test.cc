#include "store/codec.h"

#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "store/testing/synthetic_records.h"
#include "store_test_util.h"

namespace pagesieve::store {
namespace {

using storetest::DigestOf;
using storetest::MakeOrigin;
using storetest::Ms;

TEST(CodecTest, VarintsRoundTripAtEveryWidth) {
  for (int shift = 0; shift < 64; ++shift) {
    for (uint64_t v : {uint64_t{1} << shift, (uint64_t{1} << shift) - 1, ~uint64_t{0}}) {
      std::string buf;
      PutVarint64(&buf, v);
      std::string_view in = buf;
      uint64_t out = 0;
      ASSERT_TRUE(GetVarint64(&in, &out));
      EXPECT_EQ(out, v);
      EXPECT_TRUE(in.empty());
    }
  }
}

TEST(CodecTest, VarintLongerThanSixtyFourBitsIsRejected) {
  std::string buf(9, '\xff');
  buf.push_back('\x7f');  // the 10th byte may only hold one bit
  std::string_view in = buf;
  uint64_t v = 0;
  EXPECT_FALSE(GetVarint64(&in, &v));
  std::string_view unterminated = "\x80\x80";
  EXPECT_FALSE(GetVarint64(&unterminated, &v));
}

TEST(CodecTest, OriginRoundTripsExtremeValues) {
  Origin o = MakeOrigin(-5, Ms(-1'000));
  o.partition = PartitionId(INT32_MIN);
  o.offset = Offset(INT64_MAX);
  o.event_id = std::string("\0id\xff", 4);
  o.url.clear();
  std::string buf;
  EncodeOrigin(o, &buf);
  std::string_view in = buf;
  Origin back;
  ASSERT_TRUE(DecodeOrigin(&in, &back));
  EXPECT_EQ(back, o);
}

// A URL entry whose last write is another record's, with extreme positions.
UrlEntry UrlEntryWithLastWrite() {
  return {MakeOrigin(1, Ms(10)), Ms(20), DigestOf(1),
          UrlWrite{PartitionId(INT32_MIN), Offset(INT64_MAX), DigestOf(2)}};
}

TEST(CodecTest, EntriesRoundTrip) {
  const UrlEntry url = UrlEntryWithLastWrite();
  StatusOr<UrlEntry> u = DecodeUrlValue(EncodeUrlValue(url));
  ASSERT_TRUE(u.ok());
  EXPECT_EQ(u->origin, url.origin);
  EXPECT_EQ(u->last_seen, url.last_seen);
  EXPECT_EQ(u->content, url.content);
  EXPECT_EQ(u->last_write, url.last_write);

  const ContentEntry content{MakeOrigin(2, Ms(30)), Ms(40)};
  StatusOr<ContentEntry> c = DecodeContentValue(EncodeContentValue(content));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->origin, content.origin);
  EXPECT_EQ(c->last_seen, content.last_seen);

  const NearEntry near{MakeOrigin(3, Ms(50)), Ms(60), Ms(55)};
  StatusOr<NearEntry> n = DecodeNearValue(EncodeNearValue(near));
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->origin, near.origin);
  EXPECT_EQ(n->last_seen, near.last_seen);
  EXPECT_EQ(n->indexed_at, near.indexed_at);
}

// The compaction filter reads last_seen from the first 8 bytes of any value.
TEST(CodecTest, EveryValueLeadsWithLastSeen) {
  int64_t t = 0;
  ASSERT_TRUE(PeekLastSeen(EncodeUrlValue({MakeOrigin(1, Ms(1)), Ms(-77), {}}), &t));
  EXPECT_EQ(t, -77);
  ASSERT_TRUE(PeekLastSeen(EncodeContentValue({MakeOrigin(1, Ms(1)), Ms(88)}), &t));
  EXPECT_EQ(t, 88);
  ASSERT_TRUE(PeekLastSeen(EncodeNearValue({MakeOrigin(1, Ms(1)), Ms(99), Ms(5)}), &t));
  EXPECT_EQ(t, 99);
  EXPECT_FALSE(PeekLastSeen("short", &t));
}

// Storage format 3 wrote URL values without the last write: they still
// decode, with none.
TEST(CodecTest, UrlValueOfFormatThreeDecodesWithoutALastWrite) {
  const Origin origin = MakeOrigin(1, Ms(10));
  std::string format3;  // [last_seen 8][content digest 16][origin]
  PutFixed64(&format3, 20);
  format3.append(DigestOf(1).View());
  EncodeOrigin(origin, &format3);
  StatusOr<UrlEntry> u = DecodeUrlValue(format3);
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  EXPECT_EQ(u->origin, origin);
  EXPECT_EQ(u->last_seen, Ms(20));
  EXPECT_EQ(u->content, DigestOf(1));
  EXPECT_FALSE(u->last_write.has_value());
  EXPECT_EQ(EncodeUrlValue(*u), format3);
}

TEST(CodecTest, EveryTruncationIsCorruption) {
  const std::string content = EncodeContentValue({MakeOrigin(2, Ms(30)), Ms(40)});
  const std::string near = EncodeNearValue({MakeOrigin(3, Ms(50)), Ms(60), Ms(55)});
  UrlEntry without_last_write = UrlEntryWithLastWrite();
  without_last_write.last_write.reset();
  const std::string url = EncodeUrlValue(UrlEntryWithLastWrite());
  const size_t format3_size = EncodeUrlValue(without_last_write).size();
  for (size_t n = 0; n < url.size(); ++n) {
    if (n == format3_size) continue;  // exactly an entry without a last write
    EXPECT_EQ(DecodeUrlValue(url.substr(0, n)).status().code(), StatusCode::kCorruption) << n;
  }
  for (size_t n = 0; n < content.size(); ++n) {
    EXPECT_EQ(DecodeContentValue(content.substr(0, n)).status().code(), StatusCode::kCorruption);
  }
  for (size_t n = 0; n < near.size(); ++n) {
    EXPECT_EQ(DecodeNearValue(near.substr(0, n)).status().code(), StatusCode::kCorruption);
  }
}

// A near value ends with its sketch, stored as given.
TEST(CodecTest, NearValueCarriesItsSketch) {
  const std::string sketch = testing::MakeSyntheticSketch(3);
  const NearEntry near{MakeOrigin(3, Ms(50)), Ms(60), Ms(55), sketch};
  const std::string value = EncodeNearValue(near);
  StatusOr<NearEntry> n = DecodeNearValue(value);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(n->sketch, sketch);
  EXPECT_EQ(n->origin, near.origin);
  StatusOr<NearIndexFields> peeked = DecodeNearIndexFields(value);
  ASSERT_TRUE(peeked.ok());
  EXPECT_EQ(peeked->sketch, sketch);
  EXPECT_TRUE(peeked->rows.all());
  EXPECT_EQ(
      DecodeNearIndexFields(EncodeNearValue({MakeOrigin(3, Ms(50)), Ms(60), Ms(55)}))->sketch, "");
}

// A routed near owner's entry names the rows it holds; one that holds every
// row is stored as formats 3 and 4 stored every entry, without the field.
TEST(CodecTest, NearValueCarriesTheRowsItsShardHolds) {
  NearRows rows = NearRows::Some();
  rows.AddTable(2);
  rows.AddBand(0);
  rows.AddBand(30);
  const std::string sketch = testing::MakeSyntheticSketch(5);
  for (const std::string& s : {sketch, std::string()}) {
    const NearEntry near{MakeOrigin(3, Ms(50)), Ms(60), Ms(55), s, rows};
    const std::string value = EncodeNearValue(near);
    StatusOr<NearEntry> n = DecodeNearValue(value);
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    EXPECT_EQ(*n, near);
    EXPECT_FALSE(n->rows.HasTable(0));
    EXPECT_TRUE(n->rows.HasTable(2));
    EXPECT_TRUE(n->rows.HasBand(30));
    EXPECT_FALSE(n->rows.HasBand(31));
    StatusOr<NearIndexFields> fields = DecodeNearIndexFields(value);
    ASSERT_TRUE(fields.ok());
    EXPECT_EQ(fields->rows, rows);
    EXPECT_EQ(fields->sketch, s);
  }
  const NearEntry every{MakeOrigin(3, Ms(50)), Ms(60), Ms(55), sketch};
  EXPECT_EQ(EncodeNearValue(every).size(),
            EncodeNearValue({MakeOrigin(3, Ms(50)), Ms(60), Ms(55)}).size() + sketch.size());
}

// A routed near owner's slim row: the position of its origin, its rows,
// and its bands' keys in place of the sketch; what the home keeps whole is
// not repeated, and every truncation is still caught.
TEST(CodecTest, ASlimNearRowKeepsItsBandKeysInPlaceOfTheSketch) {
  NearRows rows = NearRows::Some();
  rows.AddTable(2);
  rows.AddBand(0);
  rows.AddBand(30);
  Origin position = MakeOrigin(3, Ms(50));
  position.event_id.clear();
  position.url.clear();
  NearEntry slim{position, Ms(60), Ms(55), "", rows};
  slim.slim = true;
  PutFixed64(&slim.band_keys, 0x1122334455667788);
  PutFixed64(&slim.band_keys, 42);
  const std::string value = EncodeNearValue(slim);
  StatusOr<NearEntry> n = DecodeNearValue(value);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(*n, slim);
  StatusOr<NearIndexFields> fields = DecodeNearIndexFields(value);
  ASSERT_TRUE(fields.ok());
  EXPECT_TRUE(fields->slim);
  EXPECT_EQ(fields->band_keys, slim.band_keys);
  EXPECT_TRUE(fields->sketch.empty());
  const size_t without_keys = value.size() - slim.band_keys.size();
  // Well-formed shorter values: fewer keys; an entry without a sketch, with
  // its rows or without.
  const size_t without_marker = without_keys - 2;
  const size_t without_rows = EncodeNearValue({position, Ms(60), Ms(55)}).size();
  for (size_t cut = 0; cut < value.size(); ++cut) {
    if (cut == without_keys || cut == without_keys + 8 || cut == without_marker ||
        cut == without_rows) {
      continue;
    }
    EXPECT_EQ(DecodeNearValue(value.substr(0, cut)).status().code(), StatusCode::kCorruption)
        << cut;
  }
  // A slim row is a routed owner's share: never one with every row.
  NearEntry all = slim;
  all.rows = NearRows::All();
  EXPECT_EQ(DecodeNearValue(EncodeNearValue(all)).status().code(), StatusCode::kCorruption);

  // Beside the whole entry of a page as the synthetic crawl makes it (a
  // 256-slot sketch, an event id, a news URL): not asserted beyond half,
  // reported in docs/state-store.md.
  Origin origin = MakeOrigin(3, Ms(50));
  origin.event_id = "0f8e2a6c-73912873123";
  origin.url = "https://www.example.com/news/2026/11/20/article-1234-some-title-words";
  const NearEntry whole{origin, Ms(60), Ms(55), testing::MakeSyntheticSketch(9), rows};
  std::cout << "near value bytes: whole " << EncodeNearValue(whole).size() << ", slim with "
            << slim.band_keys.size() / 8 << " band keys " << value.size() << "\n";
  EXPECT_LT(2 * value.size(), EncodeNearValue(whole).size());
}

TEST(CodecTest, EveryTruncationOfANearValueWithRowsIsCorruption) {
  NearRows rows = NearRows::Some();
  rows.AddTable(1);
  rows.AddBand(17);
  const std::string near = EncodeNearValue(
      {MakeOrigin(3, Ms(50)), Ms(60), Ms(55), testing::MakeSyntheticSketch(4), rows});
  const size_t without_sketch =
      EncodeNearValue({MakeOrigin(3, Ms(50)), Ms(60), Ms(55), "", rows}).size();
  const size_t without_rows = EncodeNearValue({MakeOrigin(3, Ms(50)), Ms(60), Ms(55)}).size();
  for (size_t n = 0; n < near.size(); ++n) {
    if (n == without_sketch || n == without_rows) continue;  // well-formed shorter entries
    EXPECT_EQ(DecodeNearValue(near.substr(0, n)).status().code(), StatusCode::kCorruption) << n;
    EXPECT_FALSE(DecodeNearIndexFields(near.substr(0, n)).ok()) << n;
  }
}

// The sketch runs to the end of the value: its header is what tells a
// truncated one, so every truncation is still caught.
TEST(CodecTest, EveryTruncationOfANearValueWithASketchIsCorruption) {
  const std::string near =
      EncodeNearValue({MakeOrigin(3, Ms(50)), Ms(60), Ms(55), testing::MakeSyntheticSketch(4)});
  const size_t without_sketch = EncodeNearValue({MakeOrigin(3, Ms(50)), Ms(60), Ms(55)}).size();
  for (size_t n = 0; n < near.size(); ++n) {
    if (n == without_sketch) continue;  // exactly an entry without a sketch
    EXPECT_EQ(DecodeNearValue(near.substr(0, n)).status().code(), StatusCode::kCorruption) << n;
    EXPECT_FALSE(DecodeNearIndexFields(near.substr(0, n)).ok()) << n;
  }
}

TEST(CodecTest, TrailingBytesAreCorruption) {
  EXPECT_FALSE(DecodeContentValue(EncodeContentValue({MakeOrigin(2, Ms(3)), Ms(4)}) + "x").ok());
  EXPECT_FALSE(DecodeUrlValue(EncodeUrlValue(UrlEntryWithLastWrite()) + "x").ok());
}

TEST(CodecTest, UrlLastWriteOfAPartitionBeyondInt32IsCorruption) {
  UrlEntry e = UrlEntryWithLastWrite();
  e.last_write.reset();
  std::string value = EncodeUrlValue(e);
  PutVarint64(&value, uint64_t{1} << 33);  // zigzag partition 2^32
  PutVarint64(&value, 0);                  // offset
  value.append(DigestOf(2).View());
  EXPECT_EQ(DecodeUrlValue(value).status().code(), StatusCode::kCorruption);
}

TEST(CodecTest, HugeLengthPrefixIsCorruptionNotAnAllocation) {
  std::string value;
  PutFixed64(&value, 1);
  PutVarint64(&value, 0);                  // event time
  PutVarint64(&value, 0);                  // partition
  PutVarint64(&value, 0);                  // offset
  PutVarint64(&value, uint64_t{1} << 62);  // event id length
  EXPECT_EQ(DecodeContentValue(value).status().code(), StatusCode::kCorruption);
}

TEST(CodecTest, RandomBytesNeverCrashTheDecoders) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 5000; ++i) {
    std::string junk(rng() % 64, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    (void)DecodeUrlValue(junk).ok();
    (void)DecodeContentValue(junk).ok();
    (void)DecodeNearValue(junk).ok();
    (void)DecodeNearIndexFields(junk).ok();
  }
}

TEST(CodecTest, OversizedOriginFieldsAreRefused) {
  Origin o = MakeOrigin(1, Ms(1));
  EXPECT_TRUE(CheckOrigin(o).ok());
  o.url.assign(kMaxOriginField + 1, 'a');
  EXPECT_EQ(CheckOrigin(o).code(), StatusCode::kInvalidArgument);
  o.url.clear();
  o.event_id.assign(kMaxOriginField + 1, 'a');
  EXPECT_EQ(CheckOrigin(o).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace pagesieve::store
