#include "store/codec.h"

#include "store/lsh_bands.h"

namespace pagesieve::store {
namespace {

uint64_t ZigZag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t UnZigZag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }

void PutString(std::string* out, std::string_view s) {
  PutVarint64(out, s.size());
  out->append(s);
}

bool GetString(std::string_view* in, std::string* s) {
  uint64_t n = 0;
  if (!GetVarint64(in, &n) || n > in->size() || n > kMaxOriginField) return false;
  s->assign(in->data(), n);
  in->remove_prefix(n);
  return true;
}

// Steps over an origin's fields without copying them.
bool SkipOrigin(std::string_view* in) {
  uint64_t v = 0;
  for (int i = 0; i < 3; ++i) {
    if (!GetVarint64(in, &v)) return false;
  }
  for (int i = 0; i < 2; ++i) {
    if (!GetVarint64(in, &v) || v > in->size() || v > kMaxOriginField) return false;
    in->remove_prefix(v);
  }
  return true;
}

// The rest of a near value after its origin: empty, or a well-formed sketch.
bool IsSketch(std::string_view rest) { return rest.empty() || ParseSketchHeader(rest).ok(); }

bool GetTime(std::string_view* in, EventTime* t) {
  if (in->size() < 8) return false;
  *t = EventTimeFromMillis(static_cast<int64_t>(DecodeFixed64(in->data())));
  in->remove_prefix(8);
  return true;
}

// A record's position (partition, offset), as origins and URL writes store it.
void PutPosition(std::string* out, PartitionId partition, Offset offset) {
  PutVarint64(out, ZigZag(partition.value()));
  PutVarint64(out, ZigZag(offset.value()));
}

bool GetPosition(std::string_view* in, PartitionId* partition, Offset* offset) {
  uint64_t p = 0, o = 0;
  if (!GetVarint64(in, &p) || !GetVarint64(in, &o)) return false;
  const int64_t signed_p = UnZigZag(p);
  if (signed_p < INT32_MIN || signed_p > INT32_MAX) return false;
  *partition = PartitionId(static_cast<int32_t>(signed_p));
  *offset = Offset(UnZigZag(o));
  return true;
}

bool GetDigest(std::string_view* in, Digest128* d) {
  if (in->size() < 16) return false;
  *d = Digest128::FromView(in->substr(0, 16));
  in->remove_prefix(16);
  return true;
}

void PutTime(std::string* out, EventTime t) { PutFixed64(out, static_cast<uint64_t>(ToMillis(t))); }

Status Malformed(std::string_view what) {
  return Status::Corruption("malformed " + std::string(what) + " value in the shard");
}

}  // namespace

void PutFixed64(std::string* out, uint64_t v) {
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>(v >> (56 - 8 * i));
  out->append(buf, 8);
}

uint64_t DecodeFixed64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

void PutVarint64(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint64(std::string_view* in, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && !in->empty(); shift += 7) {
    const auto byte = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    if (shift == 63 && byte > 1) return false;  // more than 64 bits
    result |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

bool PeekLastSeen(std::string_view value, int64_t* last_seen_ms) {
  if (value.size() < 8) return false;
  *last_seen_ms = static_cast<int64_t>(DecodeFixed64(value.data()));
  return true;
}

Status CheckOrigin(const Origin& origin) {
  if (origin.event_id.size() > kMaxOriginField || origin.url.size() > kMaxOriginField) {
    return Status::InvalidArgument("origin event id or URL longer than " +
                                   std::to_string(kMaxOriginField) + " bytes");
  }
  return Status::Ok();
}

void EncodeOrigin(const Origin& o, std::string* out) {
  PutVarint64(out, ZigZag(ToMillis(o.event_time)));
  PutPosition(out, o.partition, o.offset);
  PutString(out, o.event_id);
  PutString(out, o.url);
}

bool DecodeOrigin(std::string_view* in, Origin* o) {
  uint64_t time = 0;
  if (!GetVarint64(in, &time) || !GetPosition(in, &o->partition, &o->offset)) return false;
  o->event_time = EventTimeFromMillis(UnZigZag(time));
  return GetString(in, &o->event_id) && GetString(in, &o->url);
}

std::string EncodeUrlValue(const UrlEntry& e) {
  std::string out;
  out.reserve(70 + e.origin.event_id.size() + e.origin.url.size());
  PutTime(&out, e.last_seen);
  out.append(e.content.View());
  EncodeOrigin(e.origin, &out);
  if (e.last_write) {
    PutPosition(&out, e.last_write->partition, e.last_write->offset);
    out.append(e.last_write->previous_content.View());
  }
  return out;
}

StatusOr<UrlEntry> DecodeUrlValue(std::string_view in) {
  UrlEntry e;
  if (!GetTime(&in, &e.last_seen) || !GetDigest(&in, &e.content) || !DecodeOrigin(&in, &e.origin)) {
    return Malformed("url");
  }
  if (in.empty()) return e;  // format 3: no last write
  UrlWrite w;
  if (!GetPosition(&in, &w.partition, &w.offset) || !GetDigest(&in, &w.previous_content) ||
      !in.empty()) {
    return Malformed("url");
  }
  e.last_write = w;
  return e;
}

std::string EncodeContentValue(const ContentEntry& e) {
  std::string out;
  out.reserve(24 + e.origin.event_id.size() + e.origin.url.size());
  PutTime(&out, e.last_seen);
  EncodeOrigin(e.origin, &out);
  return out;
}

StatusOr<ContentEntry> DecodeContentValue(std::string_view in) {
  ContentEntry e;
  if (!GetTime(&in, &e.last_seen) || !DecodeOrigin(&in, &e.origin) || !in.empty()) {
    return Malformed("exact");
  }
  return e;
}

namespace {

constexpr char kRowsMarker[2] = {'\xff', '\x00'};
constexpr char kSlimMarker[2] = {'\xff', '\x01'};

// The rows field, if any, and the sketch or a slim row's band keys: the
// rest of a near value after its origin.
bool DecodeNearTail(std::string_view in, NearRows* rows, std::string_view* sketch, bool* slim,
                    std::string_view* band_keys) {
  *rows = NearRows::All();
  *slim = false;
  if (in.size() >= 2 && in[0] == kRowsMarker[0] && in[1] == kRowsMarker[1]) {
    in.remove_prefix(2);
    if (!NearRows::DecodeFrom(&in, rows)) return false;
  }
  if (in.size() >= 2 && in[0] == kSlimMarker[0] && in[1] == kSlimMarker[1]) {
    in.remove_prefix(2);
    // Slim rows are a routed owner's share: never every row.
    if (rows->all() || in.size() % 8 != 0) return false;
    *slim = true;
    *band_keys = in;
    *sketch = {};
    return true;
  }
  if (!IsSketch(in)) return false;
  *sketch = in;
  return true;
}

}  // namespace

std::string EncodeNearValue(const NearEntry& e) {
  std::string out;
  out.reserve(40 + e.origin.event_id.size() + e.origin.url.size() + e.sketch.size());
  PutTime(&out, e.last_seen);
  PutTime(&out, e.indexed_at);
  EncodeOrigin(e.origin, &out);
  if (!e.rows.all()) {
    out.append(kRowsMarker, sizeof(kRowsMarker));
    e.rows.EncodeTo(&out);
  }
  if (e.slim) {
    out.append(kSlimMarker, sizeof(kSlimMarker));
    out.append(e.band_keys);
    return out;
  }
  out.append(e.sketch);
  return out;
}

StatusOr<NearEntry> DecodeNearValue(std::string_view in) {
  NearEntry e;
  std::string_view sketch, band_keys;
  if (!GetTime(&in, &e.last_seen) || !GetTime(&in, &e.indexed_at) ||
      !DecodeOrigin(&in, &e.origin) ||
      !DecodeNearTail(in, &e.rows, &sketch, &e.slim, &band_keys)) {
    return Malformed("near");
  }
  e.sketch.assign(sketch);
  e.band_keys.assign(band_keys);
  return e;
}

StatusOr<NearIndexFields> DecodeNearIndexFields(std::string_view in) {
  if (in.size() < 16) return Malformed("near");
  in.remove_prefix(16);
  NearIndexFields fields;
  if (!SkipOrigin(&in) ||
      !DecodeNearTail(in, &fields.rows, &fields.sketch, &fields.slim, &fields.band_keys)) {
    return Malformed("near");
  }
  return fields;
}

}  // namespace pagesieve::store
