#include "engine/repartition_record.h"

#include <bit>
#include <cstring>

#include "store/codec.h"

namespace pagesieve::engine {
namespace {

// "PSR" and a version byte. Version 2 added the near rule's jaccard and
// method and the MinHash sketch; version 1 records (from a re-keying stage
// of an earlier release, still in the topic after an upgrade) are read with
// the default jaccard and method, and no sketch.
constexpr std::string_view kMagicPrefix = "PSR";
constexpr char kVersion1 = 1, kVersion2 = 2;

enum Flag : uint64_t {
  kSkipped = 1 << 0,
  kTruncated = 1 << 1,
  kFingerprints = 1 << 2,
  kSimhash = 1 << 3,
  kKey = 1 << 4,
  kBody = 1 << 5,
  kSource = 1 << 6,
  kMinHash = 1 << 7,  // version 2
  kBodyOmitted = 1 << 8,  // version 2, since the output size limit
  kAllFlags = (1 << 9) - 1,
};

void PutString(std::string* out, std::string_view s) {
  store::PutVarint64(out, s.size());
  out->append(s);
}

void PutDigest(std::string* out, const Digest128& d) {
  out->append(reinterpret_cast<const char*>(d.bytes.data()), d.bytes.size());
}

// Reads the fields in order; the first failure sticks.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  bool ok() const { return ok_; }
  bool done() const { return in_.empty(); }

  uint64_t Varint() {
    uint64_t v = 0;
    if (ok_ && !store::GetVarint64(&in_, &v)) ok_ = false;
    return v;
  }
  uint64_t Fixed64() {
    if (!ok_ || in_.size() < 8) return Fail();
    const uint64_t v = store::DecodeFixed64(in_.data());
    in_.remove_prefix(8);
    return v;
  }
  std::string String() {
    const uint64_t n = Varint();
    if (!ok_ || n > in_.size()) return Fail(), std::string();
    std::string s(in_.substr(0, n));
    in_.remove_prefix(n);
    return s;
  }
  Digest128 Digest() {
    Digest128 d;
    if (!ok_ || in_.size() < d.bytes.size()) return Fail(), d;
    std::memcpy(d.bytes.data(), in_.data(), d.bytes.size());
    in_.remove_prefix(d.bytes.size());
    return d;
  }

 private:
  uint64_t Fail() {
    ok_ = false;
    return 0;
  }
  std::string_view in_;
  bool ok_ = true;
};

// The near rule: max_distance, and from version 2 on jaccard and method
// (a version 1 record keeps the defaults for those).
Status ReadNearRule(Reader& in, char version, NearRule* rule) {
  rule->max_distance = static_cast<int>(in.Varint());
  if (version == kVersion1) return Status::Ok();
  rule->jaccard = std::bit_cast<double>(in.Fixed64());
  const uint64_t method = in.Varint();
  if (method > static_cast<uint64_t>(NearMethod::kBoth)) {
    return Status::InvalidArgument("repartition record: unknown near method");
  }
  rule->method = static_cast<NearMethod>(method);
  return Status::Ok();
}

void ReadFingerprints(Reader& in, uint64_t flags, Fingerprints* fp) {
  fp->url = in.Digest();
  fp->content = in.Digest();
  fp->payload = in.String();
  if (flags & kSimhash) fp->simhash = in.Fixed64();
  if (flags & kMinHash) fp->minhash = in.String();
}

}  // namespace

std::string EncodeRepartitionRecord(const PreparedRecord& record) {
  uint64_t flags = 0;
  if (record.skipped()) flags |= kSkipped;
  if (record.truncated) flags |= kTruncated;
  if (record.fingerprints) flags |= kFingerprints;
  if (record.fingerprints && record.fingerprints->simhash) flags |= kSimhash;
  if (record.forwarded && record.forwarded->key) flags |= kKey;
  if (record.forwarded && record.forwarded->body_field) flags |= kBody;
  if (record.source) flags |= kSource;
  if (record.fingerprints && !record.fingerprints->minhash.empty()) flags |= kMinHash;
  if (record.forwarded && record.forwarded->body_omitted_bytes) flags |= kBodyOmitted;

  std::string out(kMagicPrefix);
  out.push_back(kVersion2);
  store::PutVarint64(&out, flags);
  store::PutVarint64(&out, static_cast<uint32_t>(record.status));
  store::PutVarint64(&out, static_cast<uint64_t>(record.near.max_distance));
  store::PutFixed64(&out, std::bit_cast<uint64_t>(record.near.jaccard));
  store::PutVarint64(&out, static_cast<uint64_t>(record.near.method));
  store::PutFixed64(&out, static_cast<uint64_t>(ToMillis(record.event_time)));
  store::PutVarint64(&out, static_cast<uint32_t>(record.partition.value()));
  store::PutVarint64(&out, static_cast<uint64_t>(record.offset.value()));
  PutString(&out, record.event_id);
  PutString(&out, record.url);
  PutString(&out, record.canonical_url);
  PutString(&out, record.scope);
  if (record.fingerprints) {
    PutDigest(&out, record.fingerprints->url);
    PutDigest(&out, record.fingerprints->content);
    PutString(&out, record.fingerprints->payload);
    if (record.fingerprints->simhash) store::PutFixed64(&out, *record.fingerprints->simhash);
    if (flags & kMinHash) PutString(&out, record.fingerprints->minhash);
  }
  if (record.source) {
    PutString(&out, record.source->topic);
    store::PutVarint64(&out, static_cast<uint32_t>(record.source->partition.value()));
    store::PutVarint64(&out, static_cast<uint64_t>(record.source->offset.value()));
  }
  if (flags & kKey) PutString(&out, *record.forwarded->key);
  if (flags & kBody) {
    PutString(&out, *record.forwarded->body_field);
    PutString(&out, record.forwarded->body_json);
  }
  if (flags & kBodyOmitted) {
    store::PutVarint64(&out, static_cast<uint64_t>(*record.forwarded->body_omitted_bytes));
  }
  return out;
}

StatusOr<PreparedRecord> DecodeRepartitionRecord(std::string_view bytes) {
  const char version = bytes.size() > kMagicPrefix.size() ? bytes[kMagicPrefix.size()] : 0;
  if (bytes.substr(0, kMagicPrefix.size()) != kMagicPrefix ||
      (version != kVersion1 && version != kVersion2)) {
    return Status::InvalidArgument(
        "not a pagesieve repartition record (version 1 or 2): is input.repartition_topic "
        "shared with something else?");
  }
  Reader in(bytes.substr(kMagicPrefix.size() + 1));
  const uint64_t flags = in.Varint();
  const uint64_t known =
      version == kVersion1 ? kAllFlags & ~uint64_t{kMinHash | kBodyOmitted} : kAllFlags;
  if (flags & ~known) return Status::InvalidArgument("repartition record: unknown flags");

  // A record is skipped exactly when it carries no fingerprints.
  if (in.ok() && !(flags & kSkipped) == !(flags & kFingerprints)) {
    return Status::InvalidArgument(
        "repartition record: neither skipped nor fingerprinted, or both");
  }
  PreparedRecord r;
  r.truncated = flags & kTruncated;
  r.status = static_cast<int>(in.Varint());
  PS_RETURN_IF_ERROR(ReadNearRule(in, version, &r.near));
  r.event_time = EventTimeFromMillis(static_cast<int64_t>(in.Fixed64()));
  r.partition = PartitionId(static_cast<int32_t>(in.Varint()));
  r.offset = Offset(static_cast<int64_t>(in.Varint()));
  r.event_id = in.String();
  r.url = in.String();
  r.canonical_url = in.String();
  r.scope = in.String();
  if (flags & kFingerprints) ReadFingerprints(in, flags, &r.fingerprints.emplace());
  if (flags & kSource) {
    SourcePosition& source = r.source.emplace();
    source.topic = in.String();
    source.partition = PartitionId(static_cast<int32_t>(in.Varint()));
    source.offset = Offset(static_cast<int64_t>(in.Varint()));
  }
  // Always set: the verdict of a re-keyed record is published under the
  // original key, even when that was none (not under the scope).
  ForwardedFields& f = r.forwarded.emplace();
  if (flags & kKey) f.key = in.String();
  if (flags & kBody) {
    f.body_field = in.String();
    f.body_json = in.String();
  }
  if (flags & kBodyOmitted) f.body_omitted_bytes = static_cast<int64_t>(in.Varint());
  if (!in.ok() || !in.done())
    return Status::InvalidArgument("repartition record: truncated or malformed");
  return r;
}

}  // namespace pagesieve::engine
