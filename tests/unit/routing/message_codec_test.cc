#include "routing/message_codec.h"

#include <gtest/gtest.h>

#include <vector>

namespace pagesieve::routing {
namespace {

OrderKey Key(int64_t t) {
  return OrderKey{EventTime::FromMillis(t), "crawl.pages", PartitionId(3), Offset(t + 7)};
}

store::Origin Origin(int i) {
  return store::Origin{"ev-" + std::to_string(i), "https://a.example/" + std::to_string(i),
                       EventTime::FromMillis(1'700'000'000'000 + i), PartitionId(i % 5),
                       Offset(1000 + i)};
}

RoutedRecord Record() {
  RoutedRecord r;
  r.key = Key(1'700'000'000'123);
  r.late = true;
  r.record.event_id = "ev-1";
  r.record.url = "https://a.example/x?utm_source=y";
  r.record.canonical_url = "https://a.example/x";
  r.record.scope = "";
  r.record.event_time = EventTime::FromMillis(1'699'999'000'000);
  r.record.partition = PartitionId(3);
  r.record.offset = Offset(42);
  engine::Fingerprints fp;
  fp.url.bytes[3] = 9;
  fp.content.bytes[5] = 7;
  fp.payload = "sha1:ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  fp.simhash = 0x0123456789abcdefull;
  fp.minhash = std::string("\x05\x08\x00\x01\x10\x00\x00\x00", 8) + std::string(256, 'x');
  r.record.fingerprints = fp;
  return r;
}

std::vector<Message> Samples() {
  std::vector<Message> out;
  out.push_back(Record());
  out.push_back(Progress{SourceId{"g-url", PartitionId(2)}, Key(5), std::nullopt});
  out.push_back(Progress{SourceId{"g-content", PartitionId(0)}, Key(9), Key(6)});
  NearProbeRequest probe;
  probe.key = Key(11);
  probe.reply_to = PartitionId(4);
  probe.scope = "example.com";
  probe.keys = {{KeyKind::kTable, 0, 0xbeef}, {KeyKind::kTable, 3, 1}, {KeyKind::kBand, 32, ~0ull}};
  probe.simhash = 0xfeedface;
  probe.sketch = "sketch-bytes";
  probe.event_time = EventTime::FromMillis(-5);
  probe.input_partition = PartitionId(1);
  probe.input_offset = Offset(77);
  out.push_back(probe);
  NearAnswer answer{Key(12), PartitionId(6), {}};
  out.push_back(answer);  // no candidates
  for (int i = 0; i < 3; ++i) {
    store::NearCandidate c;
    c.simhash = 0x1000u + static_cast<uint64_t>(i);
    c.distance = i;
    c.in_tables = i != 1;
    c.in_bands = i != 0;
    c.origin = Origin(i);
    c.last_seen = EventTime::FromMillis(1'700'000'100'000 + i);
    c.sketch = i == 2 ? "" : "s" + std::to_string(i);
    answer.candidates.push_back(c);
  }
  out.push_back(answer);
  out.push_back(NearOutcome{Key(13), false, "", 0, "", {}});
  out.push_back(NearOutcome{Key(14), true, "example.com", 0xabc, "sk", Origin(9)});
  out.push_back(NearTouch{Key(15), "example.com", 0xabc, EventTime::FromMillis(1'700'000'200'000)});
  out.push_back(NearFetch{
      Key(16),
      PartitionId(2),
      "example.com",
      {{0xabc, store::PositionOf(Origin(4))}, {0xdef, store::PositionOf(Origin(7))}}});
  out.push_back(NearFetchReply{Key(16), PartitionId(5), answer.candidates});
  return out;
}

// Field by field, through the encoding again: the structs have no ==.
void ExpectSame(const Message& a, const Message& b) {
  ASSERT_EQ(a.index(), b.index());
  EXPECT_EQ(EncodeMessage(a), EncodeMessage(b));
  if (const auto* r = std::get_if<RoutedRecord>(&a)) {
    const auto& s = std::get<RoutedRecord>(b);
    EXPECT_EQ(r->key, s.key);
    EXPECT_EQ(r->late, s.late);
    // What the owners and the verdict need; the repartition record also
    // marks the record as forwarded (docs/rekey.md).
    EXPECT_EQ(r->record.event_id, s.record.event_id);
    EXPECT_EQ(r->record.url, s.record.url);
    EXPECT_EQ(r->record.canonical_url, s.record.canonical_url);
    EXPECT_EQ(r->record.scope, s.record.scope);
    EXPECT_EQ(r->record.event_time, s.record.event_time);
    EXPECT_EQ(r->record.fingerprints, s.record.fingerprints);
    EXPECT_EQ(r->record.near, s.record.near);
    EXPECT_EQ(r->record.partition, s.record.partition);
    EXPECT_EQ(r->record.offset, s.record.offset);
  }
  if (const auto* c = std::get_if<NearAnswer>(&a)) {
    const auto& d = std::get<NearAnswer>(b);
    EXPECT_EQ(c->key, d.key);
    EXPECT_EQ(c->from, d.from);
    EXPECT_EQ(c->candidates, d.candidates);
  }
  if (const auto* p = std::get_if<NearProbeRequest>(&a)) {
    const auto& q = std::get<NearProbeRequest>(b);
    EXPECT_EQ(p->keys, q.keys);
    EXPECT_EQ(p->sketch, q.sketch);
    EXPECT_EQ(p->event_time, q.event_time);
    EXPECT_EQ(p->input_offset, q.input_offset);
  }
  if (const auto* p = std::get_if<Progress>(&a)) {
    const auto& q = std::get<Progress>(b);
    EXPECT_EQ(p->from, q.from);
    EXPECT_EQ(p->promise, q.promise);
    EXPECT_EQ(p->decided, q.decided);
  }
  if (const auto* f = std::get_if<NearFetch>(&a)) {
    const auto& g = std::get<NearFetch>(b);
    EXPECT_EQ(f->key, g.key);
    EXPECT_EQ(f->reply_to, g.reply_to);
    EXPECT_EQ(f->scope, g.scope);
    EXPECT_EQ(f->wanted, g.wanted);
  }
  if (const auto* f = std::get_if<NearFetchReply>(&a)) {
    const auto& g = std::get<NearFetchReply>(b);
    EXPECT_EQ(f->key, g.key);
    EXPECT_EQ(f->from, g.from);
    EXPECT_EQ(f->entries, g.entries);
  }
  if (const auto* o = std::get_if<NearOutcome>(&a)) {
    const auto& q = std::get<NearOutcome>(b);
    EXPECT_EQ(o->insert, q.insert);
    EXPECT_EQ(o->origin, q.origin);
    EXPECT_EQ(o->sketch, q.sketch);
  }
}

TEST(MessageCodecTest, DecodesEveryKindItEncodes) {
  for (const Message& m : Samples()) {
    const std::string bytes = EncodeMessage(m);
    StatusOr<Message> back = DecodeMessage(bytes);
    ASSERT_TRUE(back.ok()) << "kind " << m.index() << ": " << back.status().ToString();
    ExpectSame(m, *back);
  }
}

// Every prefix of every message, and every message with a byte more, is
// refused with InvalidArgument: a consumer never crashes on a cut or
// foreign message, it names it.
TEST(MessageCodecTest, RefusesEveryTruncationAndTrailingBytes) {
  for (const Message& m : Samples()) {
    const std::string bytes = EncodeMessage(m);
    for (size_t n = 0; n < bytes.size(); ++n) {
      StatusOr<Message> cut = DecodeMessage(bytes.substr(0, n));
      ASSERT_FALSE(cut.ok()) << "kind " << m.index() << " cut at " << n;
      EXPECT_EQ(cut.status().code(), StatusCode::kInvalidArgument);
    }
    EXPECT_FALSE(DecodeMessage(bytes + "x").ok()) << "kind " << m.index();
  }
}

TEST(MessageCodecTest, RefusesOtherMagicVersionsAndKinds) {
  std::string bytes = EncodeMessage(NearTouch{Key(1), "s", 1, EventTime::FromMillis(2)});
  std::string other = bytes;
  other[0] = 'X';
  EXPECT_FALSE(DecodeMessage(other).ok());
  other = bytes;
  other[3] = 2;  // version
  StatusOr<Message> v = DecodeMessage(other);
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("version 2"), std::string::npos) << v.status().ToString();
  other = bytes;
  other[4] = 99;  // kind
  EXPECT_FALSE(DecodeMessage(other).ok());
}

}  // namespace
}  // namespace pagesieve::routing
