#include "store/cuckoo/cuckoo_format.h"

#include "store/bloom/filter_header.h"
#include "store/fixed_fields.h"

namespace pagesieve::store::cuckoo {
namespace {

constexpr FilterHeaderFrame kFrame{"cuckoo header", std::string_view("PSCUCKOO", 8),
                                   kCuckooFormatVersion, kMaxCuckooGenerations};
constexpr size_t kStashEntryBytes = 12;

void PutParameters(const BloomOptions& o, const CuckooGeometry& g, std::string* out) {
  PutFilterPreamble(kFrame, o, out);
  PutFixedField<uint32_t>(out, static_cast<uint32_t>(g.fingerprint_bits));
  PutFixedField<uint64_t>(out, g.buckets);
  PutFixedField<uint32_t>(out, g.buckets_per_page);
  PutFixedField<int64_t>(out, g.generation_width.count());
  PutFixedField<uint64_t>(out, g.keys_per_generation);
}

// Values that do not fit their C++ type are left out of range, for
// validation to reject.
void GetParameters(FixedFieldReader& r, BloomOptions& o, CuckooGeometry& g) {
  GetFilterOptions(kFrame, r, &o);
  const uint32_t bits = r.Get<uint32_t>();
  g.fingerprint_bits = bits > kMaxFingerprintBits ? -1 : static_cast<int>(bits);
  g.buckets = r.Get<uint64_t>();
  g.buckets_per_page = r.Get<uint32_t>();
  g.generation_width = Duration(r.Get<int64_t>());
  g.keys_per_generation = r.Get<uint64_t>();
}

Status Corrupt(std::string_view what) { return kFrame.Corrupt(what); }

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

bool IsCuckooHeader(std::string_view bytes) { return HasFilterMagic(kFrame, bytes); }

uint32_t CuckooParameterTag(const BloomOptions& options, const CuckooGeometry& geometry) {
  std::string params;
  PutParameters(options, geometry, &params);
  return FilterParameterTag(params);
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
  AppendFilterChecksum(&out);
  return out;
}

StatusOr<CuckooHeader> DecodeCuckooHeader(std::string_view bytes) {
  PS_ASSIGN_OR_RETURN(FixedFieldReader r, OpenFilterHeader(kFrame, bytes, 0));
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
