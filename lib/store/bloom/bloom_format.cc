#include "store/bloom/bloom_format.h"

#include "store/bloom/filter_header.h"
#include "store/fixed_fields.h"

namespace pagesieve::store::bloom {
namespace {

constexpr FilterHeaderFrame kFrame{"bloom header", std::string_view("PSBLOOM\0", 8),
                                   kBloomFormatVersion, kMaxBloomGenerations};
// magic, version, 10 option and geometry fields: the part the tag covers.
constexpr size_t kParameterBytes = 72;
constexpr size_t kSlotBytes = 16;
constexpr size_t kChecksumBytes = 8;

void PutParameters(const BloomOptions& o, const BloomGeometry& g, std::string* out) {
  PutFilterPreamble(kFrame, o, out);
  PutFixedField<uint32_t>(out, static_cast<uint32_t>(g.num_probes));
  PutFixedField<uint64_t>(out, g.groups);
  PutFixedField<int64_t>(out, g.generation_width.count());
  PutFixedField<uint64_t>(out, g.keys_per_generation);
}

Status Corrupt(std::string_view what) { return kFrame.Corrupt(what); }

// The fields after magic and version. Values that do not fit their C++ type
// are left out of range, for validation to reject.
void GetParameters(FixedFieldReader& r, BloomOptions& o, BloomGeometry& g) {
  GetFilterOptions(kFrame, r, &o);
  const uint32_t probes = r.Get<uint32_t>();
  g.num_probes = probes > kMaxProbes ? -1 : static_cast<int>(probes);
  g.groups = r.Get<uint64_t>();
  g.generation_width = Duration(r.Get<int64_t>());
  g.keys_per_generation = r.Get<uint64_t>();
  g.slots = o.generations + 1;
  g.page_bytes = static_cast<uint32_t>(o.page_bytes);
}

Status CheckSlots(const BloomHeader& h) {
  const int64_t newest = GenerationOf(h.watermark_ms, h.geometry.generation_width);
  const int64_t oldest =
      OldestLiveGeneration(h.watermark_ms, h.options.ttl, h.geometry.generation_width);
  for (size_t i = 0; i < h.slots.size(); ++i) {
    const int64_t gen = h.slots[i].generation;
    if (gen == kNoGeneration) continue;
    if (gen < oldest || gen > newest || SlotOf(gen, h.geometry.slots) != static_cast<int>(i)) {
      return Corrupt("slot " + std::to_string(i) + " holds generation " + std::to_string(gen) +
                     ", which cannot be live there at the stored watermark");
    }
  }
  return Status::Ok();
}

}  // namespace

uint32_t BloomParameterTag(const BloomOptions& options, const BloomGeometry& geometry) {
  std::string params;
  PutParameters(options, geometry, &params);
  return FilterParameterTag(params);
}

std::string EncodeBloomHeader(const BloomHeader& h) {
  std::string out;
  out.reserve(kParameterBytes + 8 + kSlotBytes * h.slots.size() + kChecksumBytes);
  PutParameters(h.options, h.geometry, &out);
  PutFixedField<int64_t>(&out, h.watermark_ms);
  for (const SlotState& s : h.slots) {
    PutFixedField<int64_t>(&out, s.generation);
    PutFixedField<uint64_t>(&out, s.inserts);
  }
  AppendFilterChecksum(&out);
  return out;
}

StatusOr<BloomHeader> DecodeBloomHeader(std::string_view bytes) {
  PS_ASSIGN_OR_RETURN(FixedFieldReader r,
                      OpenFilterHeader(kFrame, bytes, kParameterBytes + 8 + kChecksumBytes));
  BloomHeader h;
  GetParameters(r, h.options, h.geometry);
  if (Status s = ValidateBloomOptions(h.options); !s.ok()) return Corrupt(s.message());
  PS_RETURN_IF_ERROR(ValidateGeometry(h.options, h.geometry));
  h.watermark_ms = r.Get<int64_t>();
  if (r.remaining() != kSlotBytes * h.geometry.slots) return Corrupt("wrong length for its slots");
  h.slots.resize(h.geometry.slots);
  for (SlotState& s : h.slots) {
    s.generation = r.Get<int64_t>();
    s.inserts = r.Get<uint64_t>();
  }
  if (!r.ok()) return Corrupt("truncated");
  if (h.watermark_ms < 0) return Corrupt("negative watermark");
  PS_RETURN_IF_ERROR(CheckSlots(h));
  return h;
}

void AppendPagePrefix(const PagePrefix& prefix, std::string* out) {
  PutFixedField<uint32_t>(out, prefix.tag);
  PutFixedField<uint32_t>(out, prefix.page_id);
  PutFixedField<int64_t>(out, prefix.generation);
}

StatusOr<PagePrefix> DecodePagePrefix(std::string_view page, size_t page_bytes) {
  if (page.size() != kPagePrefixBytes + page_bytes) {
    return Status::Corruption("bloom page: " + std::to_string(page.size()) + " bytes, expected " +
                              std::to_string(kPagePrefixBytes + page_bytes));
  }
  FixedFieldReader r(page);
  PagePrefix p;
  p.tag = r.Get<uint32_t>();
  p.page_id = r.Get<uint32_t>();
  p.generation = r.Get<int64_t>();
  return p;
}

}  // namespace pagesieve::store::bloom
