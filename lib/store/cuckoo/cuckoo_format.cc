#include "store/cuckoo/cuckoo_format.h"

#include <xxhash.h>

#include <bit>
#include <cstring>

#include "store/fixed_fields.h"

namespace pagesieve::store::cuckoo {
namespace {

constexpr char kMagic[8] = {'P', 'S', 'C', 'U', 'C', 'K', 'O', 'O'};
constexpr size_t kChecksumBytes = 8;
constexpr size_t kStashEntryBytes = 12;


void PutParameters(const BloomOptions& o, const CuckooGeometry& g, std::string* out) {
  out->append(kMagic, sizeof(kMagic));
  PutFixedField<uint32_t>(out, kCuckooFormatVersion);
  PutFixedField<uint64_t>(out, o.expected_items);
  PutFixedField<uint64_t>(out, std::bit_cast<uint64_t>(o.false_positive_rate));
  PutFixedField<uint32_t>(out, static_cast<uint32_t>(o.generations));
  PutFixedField<int64_t>(out, o.ttl.count());
  PutFixedField<uint32_t>(out, static_cast<uint32_t>(o.page_bytes));
  PutFixedField<uint32_t>(out, static_cast<uint32_t>(g.fingerprint_bits));
  PutFixedField<uint64_t>(out, g.buckets);
  PutFixedField<uint32_t>(out, g.buckets_per_page);
  PutFixedField<int64_t>(out, g.generation_width.count());
  PutFixedField<uint64_t>(out, g.keys_per_generation);
}

// Values that do not fit their C++ type are left out of range, for
// validation to reject.
void GetParameters(FixedFieldReader& r, BloomOptions& o, CuckooGeometry& g) {
  o.expected_items = r.Get<uint64_t>();
  o.false_positive_rate = std::bit_cast<double>(r.Get<uint64_t>());
  const uint32_t generations = r.Get<uint32_t>();
  o.generations = generations > kMaxCuckooGenerations ? -1 : static_cast<int>(generations);
  o.ttl = Duration(r.Get<int64_t>());
  o.page_bytes = r.Get<uint32_t>();
  const uint32_t bits = r.Get<uint32_t>();
  g.fingerprint_bits = bits > kMaxFingerprintBits ? -1 : static_cast<int>(bits);
  g.buckets = r.Get<uint64_t>();
  g.buckets_per_page = r.Get<uint32_t>();
  g.generation_width = Duration(r.Get<int64_t>());
  g.keys_per_generation = r.Get<uint64_t>();
}

Status Corrupt(std::string_view what) {
  return Status::Corruption("cuckoo header: " + std::string(what));
}

Status CheckStash(const CuckooHeader& h) {
  for (const StashEntry& e : h.stash) {
    if (e.bucket >= h.geometry.buckets || (e.value >> kTagBits) == 0 ||
        (e.value >> h.geometry.slot_bits()) != 0) {
      return Corrupt("bad stash entry");
    }
  }
  return Status::Ok();
}

}  // namespace

bool IsCuckooHeader(std::string_view bytes) {
  return bytes.size() >= sizeof(kMagic) && std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) == 0;
}

uint32_t CuckooParameterTag(const BloomOptions& options, const CuckooGeometry& geometry) {
  std::string params;
  PutParameters(options, geometry, &params);
  return static_cast<uint32_t>(XXH3_64bits(params.data(), params.size()));
}

std::string EncodeCuckooHeader(const CuckooHeader& h) {
  std::string out;
  PutParameters(h.options, h.geometry, &out);
  PutFixedField<int64_t>(&out, h.watermark_ms);
  PutFixedField<uint64_t>(&out, h.stash.size());
  for (const StashEntry& e : h.stash) {
    PutFixedField<uint64_t>(&out, e.bucket);
    PutFixedField<uint32_t>(&out, e.value);
  }
  PutFixedField<uint64_t>(&out, XXH3_64bits(out.data(), out.size()));
  return out;
}

StatusOr<CuckooHeader> DecodeCuckooHeader(std::string_view bytes) {
  if (!IsCuckooHeader(bytes)) return Corrupt("bad magic");
  if (bytes.size() < sizeof(kMagic) + 4 + kChecksumBytes) return Corrupt("too short");
  FixedFieldReader r(bytes.substr(sizeof(kMagic), bytes.size() - sizeof(kMagic) - kChecksumBytes));
  // The version before the checksum: a later format deserves the clearer error.
  if (const uint32_t version = r.Get<uint32_t>(); version != kCuckooFormatVersion) {
    return Status::FailedPrecondition("cuckoo header: format version " + std::to_string(version) +
                                      ", this build reads version " +
                                      std::to_string(kCuckooFormatVersion));
  }
  const std::string_view body = bytes.substr(0, bytes.size() - kChecksumBytes);
  uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + body.size(), kChecksumBytes);
  if (XXH3_64bits(body.data(), body.size()) != stored) return Corrupt("checksum mismatch");
  CuckooHeader h;
  GetParameters(r, h.options, h.geometry);
  h.watermark_ms = r.Get<int64_t>();
  const uint64_t stash_size = r.Get<uint64_t>();
  if (!r.ok()) return Corrupt("truncated");
  if (Status s = ValidateBloomOptions(h.options); !s.ok()) return Corrupt(s.message());
  if (h.options.generations > kMaxCuckooGenerations) return Corrupt("too many generations");
  PS_RETURN_IF_ERROR(ValidateCuckooGeometry(h.options, h.geometry));
  if (h.watermark_ms < 0) return Corrupt("negative watermark");
  if (stash_size > r.remaining() / kStashEntryBytes || r.remaining() % kStashEntryBytes != 0 ||
      stash_size * kStashEntryBytes != r.remaining()) {
    return Corrupt("wrong length for its stash");
  }
  h.stash.resize(stash_size);
  for (StashEntry& e : h.stash) {
    e.bucket = r.Get<uint64_t>();
    e.value = r.Get<uint32_t>();
  }
  PS_RETURN_IF_ERROR(CheckStash(h));
  return h;
}

}  // namespace pagesieve::store::cuckoo
