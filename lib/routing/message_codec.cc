#include "routing/message_codec.h"

#include <bit>
#include <cstdint>
#include <type_traits>

#include "engine/repartition_record.h"
#include "store/codec.h"

namespace pagesieve::routing {
namespace {

constexpr std::string_view kMagic = "PSM";
constexpr char kVersion = 1;

enum class Kind : uint8_t {
  kRecord = 1,
  kProgress,
  kProbe,
  kAnswer,
  kOutcome,
  kTouch,
  kFetch,
  kFetchReply
};

// Writes fields in order.
class Writer {
 public:
  void Varint(uint64_t v) { store::PutVarint64(&out_, v); }
  void Signed(int64_t v) { store::PutFixed64(&out_, static_cast<uint64_t>(v)); }
  void Word(uint64_t v) { store::PutFixed64(&out_, v); }
  void Byte(uint8_t b) { out_.push_back(static_cast<char>(b)); }
  void String(std::string_view s) {
    Varint(s.size());
    out_.append(s);
  }
  void Key(const OrderKey& k) { String(EncodeOrderKey(k)); }
  void Source(const SourceId& s) {
    String(s.topic);
    Signed(s.partition.value());
  }
  void Origin(const store::Origin& o) { store::EncodeOrigin(o, &out_); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads fields in order; the first failure sticks and later reads return
// zeros, so a decoder reads everything and checks once.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  uint64_t Varint() {
    uint64_t v = 0;
    if (ok_ && !store::GetVarint64(&in_, &v)) ok_ = false;
    return ok_ ? v : 0;
  }
  uint64_t Word() {
    if (!ok_ || in_.size() < 8) {
      ok_ = false;
      return 0;
    }
    const uint64_t v = store::DecodeFixed64(in_.data());
    in_.remove_prefix(8);
    return v;
  }
  int64_t Signed() { return static_cast<int64_t>(Word()); }
  uint8_t Byte() {
    if (!ok_ || in_.empty()) {
      ok_ = false;
      return 0;
    }
    const auto b = static_cast<uint8_t>(in_[0]);
    in_.remove_prefix(1);
    return b;
  }
  std::string_view String() {
    const uint64_t n = Varint();
    if (!ok_ || n > in_.size()) {
      ok_ = false;
      return {};
    }
    const std::string_view s = in_.substr(0, n);
    in_.remove_prefix(n);
    return s;
  }
  OrderKey Key() {
    const std::string_view bytes = String();
    if (!ok_) return {};
    StatusOr<OrderKey> k = DecodeOrderKey(bytes);
    if (!k.ok()) {
      ok_ = false;
      return {};
    }
    return *std::move(k);
  }
  SourceId Source() {
    SourceId s;
    s.topic = std::string(String());
    const int64_t p = Signed();
    if (p < INT32_MIN || p > INT32_MAX) ok_ = false;
    s.partition = PartitionId(static_cast<int32_t>(p));
    return s;
  }
  store::Origin Origin() {
    store::Origin o;
    if (ok_ && !store::DecodeOrigin(&in_, &o)) ok_ = false;
    return o;
  }
  PartitionId Partition() {
    const int64_t p = Signed();
    if (p < INT32_MIN || p > INT32_MAX) ok_ = false;
    return PartitionId(static_cast<int32_t>(p));
  }
  void Fail() { ok_ = false; }
  bool ok() const { return ok_; }
  bool done() const { return in_.empty(); }

 private:
  std::string_view in_;
  bool ok_ = true;
};

void Put(Writer& w, const RoutedRecord& m) {
  w.Key(m.key);
  w.Byte(m.late ? 1 : 0);
  w.String(engine::EncodeRepartitionRecord(m.record));
}
void Put(Writer& w, const Progress& m) {
  w.Source(m.from);
  w.Key(m.promise);
  w.Byte(m.decided ? 1 : 0);
  if (m.decided) w.Key(*m.decided);
}
void Put(Writer& w, const NearProbeRequest& m) {
  w.Key(m.key);
  w.Signed(m.reply_to.value());
  w.String(m.scope);
  w.Varint(m.keys.size());
  for (const NearKey& k : m.keys) {
    w.Byte(static_cast<uint8_t>(k.kind));
    w.Varint(static_cast<uint64_t>(k.index));
    w.Word(k.value);
  }
  w.Word(m.simhash);
  w.String(m.sketch);
  w.Signed(m.event_time.millis());
  w.Signed(m.input_partition.value());
  w.Signed(m.input_offset.value());
}
void Put(Writer& w, const store::NearCandidate& c) {
  w.Word(c.simhash);
  w.Varint(static_cast<uint64_t>(c.distance));
  w.Byte(static_cast<uint8_t>((c.in_tables ? 1 : 0) | (c.in_bands ? 2 : 0)));
  w.Origin(c.origin);
  w.Signed(c.last_seen.millis());
  w.String(c.sketch);
}
void Put(Writer& w, const NearAnswer& m) {
  w.Key(m.key);
  w.Signed(m.from.value());
  w.Varint(m.candidates.size());
  for (const store::NearCandidate& c : m.candidates) Put(w, c);
}
void Put(Writer& w, const NearFetch& m) {
  w.Key(m.key);
  w.Signed(m.reply_to.value());
  w.String(m.scope);
  w.Varint(m.wanted.size());
  for (const NearWanted& x : m.wanted) {
    w.Word(x.simhash);
    w.Signed(x.at.event_time.millis());
    w.Signed(x.at.partition.value());
    w.Signed(x.at.offset.value());
  }
}
void Put(Writer& w, const NearFetchReply& m) {
  w.Key(m.key);
  w.Signed(m.from.value());
  w.Varint(m.entries.size());
  for (const store::NearCandidate& c : m.entries) Put(w, c);
}
void Put(Writer& w, const NearOutcome& m) {
  w.Key(m.key);
  w.Byte(m.insert ? 1 : 0);
  if (!m.insert) return;
  w.String(m.scope);
  w.Word(m.simhash);
  w.String(m.sketch);
  w.Origin(m.origin);
}
void Put(Writer& w, const NearTouch& m) {
  w.Key(m.key);
  w.String(m.scope);
  w.Word(m.simhash);
  w.Signed(m.time.millis());
}

// The variant's alternatives are in the kinds' order.
static_assert(std::is_same_v<std::variant_alternative_t<0, Message>, RoutedRecord>);
static_assert(std::is_same_v<std::variant_alternative_t<1, Message>, Progress>);
static_assert(std::is_same_v<std::variant_alternative_t<2, Message>, NearProbeRequest>);
static_assert(std::is_same_v<std::variant_alternative_t<3, Message>, NearAnswer>);
static_assert(std::is_same_v<std::variant_alternative_t<4, Message>, NearOutcome>);
static_assert(std::is_same_v<std::variant_alternative_t<5, Message>, NearTouch>);
static_assert(std::is_same_v<std::variant_alternative_t<6, Message>, NearFetch>);
static_assert(std::is_same_v<std::variant_alternative_t<7, Message>, NearFetchReply>);

store::NearCandidate GetCandidate(Reader& r) {
  store::NearCandidate c;
  c.simhash = r.Word();
  c.distance = static_cast<int>(r.Varint() & 0x7f);
  const uint8_t flags = r.Byte();
  if (flags > 3) r.Fail();
  c.in_tables = (flags & 1) != 0;
  c.in_bands = (flags & 2) != 0;
  c.origin = r.Origin();
  c.last_seen = EventTime::FromMillis(r.Signed());
  c.sketch = std::string(r.String());
  return c;
}

Kind KindOf(const Message& m) { return static_cast<Kind>(m.index() + 1); }

StatusOr<Message> Get(Reader& r, Kind kind) {
  switch (kind) {
    case Kind::kRecord: {
      RoutedRecord m;
      m.key = r.Key();
      const uint8_t late = r.Byte();
      if (late > 1) r.Fail();
      m.late = late == 1;
      const std::string_view record = r.String();
      if (!r.ok()) return Status::InvalidArgument("routing message: truncated or malformed");
      PS_ASSIGN_OR_RETURN(m.record, engine::DecodeRepartitionRecord(record));
      return Message(std::move(m));
    }
    case Kind::kProgress: {
      Progress m;
      m.from = r.Source();
      m.promise = r.Key();
      const uint8_t has = r.Byte();
      if (has > 1) r.Fail();
      if (has == 1) m.decided = r.Key();
      return Message(std::move(m));
    }
    case Kind::kProbe: {
      NearProbeRequest m;
      m.key = r.Key();
      m.reply_to = r.Partition();
      m.scope = std::string(r.String());
      const uint64_t n = r.Varint();
      if (n > 4096) r.Fail();  // tables and bands are at most a few hundred
      for (uint64_t i = 0; r.ok() && i < n; ++i) {
        NearKey k;
        const uint8_t kind_byte = r.Byte();
        if (kind_byte != static_cast<uint8_t>(KeyKind::kTable) &&
            kind_byte != static_cast<uint8_t>(KeyKind::kBand)) {
          r.Fail();
        }
        k.kind = static_cast<KeyKind>(kind_byte);
        k.index = static_cast<int>(r.Varint() & 0xffff);
        k.value = r.Word();
        m.keys.push_back(k);
      }
      m.simhash = r.Word();
      m.sketch = std::string(r.String());
      m.event_time = EventTime::FromMillis(r.Signed());
      m.input_partition = r.Partition();
      m.input_offset = Offset(r.Signed());
      return Message(std::move(m));
    }
    case Kind::kAnswer: {
      NearAnswer m;
      m.key = r.Key();
      m.from = r.Partition();
      const uint64_t n = r.Varint();
      for (uint64_t i = 0; r.ok() && i < n; ++i) m.candidates.push_back(GetCandidate(r));
      return Message(std::move(m));
    }
    case Kind::kFetch: {
      NearFetch m;
      m.key = r.Key();
      m.reply_to = r.Partition();
      m.scope = std::string(r.String());
      const uint64_t n = r.Varint();
      for (uint64_t i = 0; r.ok() && i < n; ++i) {
        NearWanted x;
        x.simhash = r.Word();
        x.at.event_time = EventTime::FromMillis(r.Signed());
        x.at.partition = r.Partition();
        x.at.offset = Offset(r.Signed());
        m.wanted.push_back(x);
      }
      return Message(std::move(m));
    }
    case Kind::kFetchReply: {
      NearFetchReply m;
      m.key = r.Key();
      m.from = r.Partition();
      const uint64_t n = r.Varint();
      for (uint64_t i = 0; r.ok() && i < n; ++i) m.entries.push_back(GetCandidate(r));
      return Message(std::move(m));
    }
    case Kind::kOutcome: {
      NearOutcome m;
      m.key = r.Key();
      const uint8_t insert = r.Byte();
      if (insert > 1) r.Fail();
      m.insert = insert == 1;
      if (m.insert) {
        m.scope = std::string(r.String());
        m.simhash = r.Word();
        m.sketch = std::string(r.String());
        m.origin = r.Origin();
      }
      return Message(std::move(m));
    }
    case Kind::kTouch: {
      NearTouch m;
      m.key = r.Key();
      m.scope = std::string(r.String());
      m.simhash = r.Word();
      m.time = EventTime::FromMillis(r.Signed());
      return Message(std::move(m));
    }
  }
  return Status::InvalidArgument("routing message: unknown kind " +
                                 std::to_string(static_cast<int>(kind)));
}

}  // namespace

std::string EncodeMessage(const Message& message) {
  Writer w;
  for (char c : kMagic) w.Byte(static_cast<uint8_t>(c));
  w.Byte(kVersion);
  w.Byte(static_cast<uint8_t>(KindOf(message)));
  std::visit([&](const auto& m) { Put(w, m); }, message);
  return w.Take();
}

StatusOr<Message> DecodeMessage(std::string_view bytes) {
  if (bytes.size() < kMagic.size() + 2 || bytes.substr(0, kMagic.size()) != kMagic) {
    return Status::InvalidArgument("routing message: not one (no PSM magic)");
  }
  if (bytes[kMagic.size()] != kVersion) {
    return Status::InvalidArgument("routing message: version " +
                                   std::to_string(static_cast<int>(bytes[kMagic.size()])) +
                                   ", this build reads " + std::to_string(kVersion));
  }
  const auto kind = static_cast<Kind>(bytes[kMagic.size() + 1]);
  Reader r(bytes.substr(kMagic.size() + 2));
  PS_ASSIGN_OR_RETURN(Message m, Get(r, kind));
  if (!r.ok()) return Status::InvalidArgument("routing message: truncated or malformed");
  if (!r.done()) return Status::InvalidArgument("routing message: bytes left over");
  return m;
}

}  // namespace pagesieve::routing
