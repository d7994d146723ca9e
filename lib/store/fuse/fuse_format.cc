#include "store/fuse/fuse_format.h"

#include "store/bloom/filter_header.h"
#include "store/fixed_fields.h"

namespace pagesieve::store::fuse {
namespace {

constexpr FilterHeaderFrame kFrame{"fuse header", std::string_view("PSFUSE\0\0", 8),
                                   kFuseFormatVersion, kMaxBloomGenerations};

void PutParameters(const BloomOptions& o, const FuseGeometry& g, std::string* out) {
  PutFilterPreamble(kFrame, o, out);
  PutFixedField<uint32_t>(out, static_cast<uint32_t>(g.fingerprint_bits));
  PutFixedField<uint32_t>(out, static_cast<uint32_t>(g.open_probes));
  PutFixedField<uint64_t>(out, g.open_blocks);
  PutFixedField<int64_t>(out, g.generation_width.count());
  PutFixedField<uint64_t>(out, g.keys_per_generation);
}

// Values that do not fit their C++ type are left out of range, for
// validation to reject.
int SmallInt(uint32_t v) { return v > 1024 ? -1 : static_cast<int>(v); }

void GetParameters(FixedFieldReader& r, BloomOptions& o, FuseGeometry& g) {
  GetFilterOptions(kFrame, r, &o);
  g.fingerprint_bits = SmallInt(r.Get<uint32_t>());
  g.open_probes = SmallInt(r.Get<uint32_t>());
  g.open_blocks = r.Get<uint64_t>();
  g.generation_width = Duration(r.Get<int64_t>());
  g.keys_per_generation = r.Get<uint64_t>();
}

Status Corrupt(std::string_view what) { return kFrame.Corrupt(what); }

// Every log holds a generation live at the header's watermark, in its slot;
// the sealed filter covers the live generations before the open one, or,
// in a checkpoint taken while a rebuild ran beside the shard's thread,
// those of an earlier watermark (the restored filter rebuilds).
Status CheckState(const FuseHeader& h) {
  const Duration width = h.geometry.generation_width;
  const int64_t newest = bloom::GenerationOf(h.watermark_ms, width);
  const int64_t oldest = bloom::OldestLiveGeneration(h.watermark_ms, h.options.ttl, width);
  if (h.built_newest > newest || h.built_oldest > oldest || h.built_oldest > h.built_newest) {
    return Corrupt("sealed generations after the watermark");
  }
  for (int s = 0; s < kLogSlots; ++s) {
    const LogSlot& log = h.logs[s];
    if (log.generation == bloom::kNoGeneration) {
      if (log.chunks != 0 || log.keys != 0) return Corrupt("keys of no generation");
      continue;
    }
    if (log.generation < oldest || log.generation > newest ||
        bloom::SlotOf(log.generation, kLogSlots) != s || log.chunks > kMaxLogChunks ||
        log.keys > uint64_t{log.chunks} * kLogChunkKeys) {
      return Corrupt("bad key log");
    }
  }
  if (h.sealed.keys != 0 && h.sealed.fingerprint_bits != h.geometry.fingerprint_bits) {
    return Corrupt("sealed filter of another width");
  }
  return BinaryFuse::ValidateShape(h.sealed).WithContext("fuse header");
}

}  // namespace

bool IsFuseHeader(std::string_view bytes) { return HasFilterMagic(kFrame, bytes); }

uint32_t FuseParameterTag(const BloomOptions& options, const FuseGeometry& geometry) {
  std::string params;
  PutParameters(options, geometry, &params);
  return FilterParameterTag(params);
}

std::string EncodeFuseHeader(const FuseHeader& h) {
  std::string out;
  PutParameters(h.options, h.geometry, &out);
  PutFixedField<int64_t>(&out, h.watermark_ms);
  PutFixedField<uint64_t>(&out, h.build);
  PutFixedField<int64_t>(&out, h.built_oldest);
  PutFixedField<int64_t>(&out, h.built_newest);
  PutFixedField<uint64_t>(&out, h.late_in_open);
  PutFixedField<uint64_t>(&out, h.sealed.keys);
  PutFixedField<uint64_t>(&out, h.sealed.seed);
  PutFixedField<uint32_t>(&out, h.sealed.segment_length);
  PutFixedField<uint32_t>(&out, h.sealed.segment_count);
  for (const LogSlot& log : h.logs) {
    PutFixedField<int64_t>(&out, log.generation);
    PutFixedField<uint32_t>(&out, log.chunks);
    PutFixedField<uint64_t>(&out, log.keys);
  }
  AppendFilterChecksum(&out);
  return out;
}

StatusOr<FuseHeader> DecodeFuseHeader(std::string_view bytes) {
  PS_ASSIGN_OR_RETURN(FixedFieldReader r, OpenFilterHeader(kFrame, bytes, 0));
  FuseHeader h;
  GetParameters(r, h.options, h.geometry);
  h.watermark_ms = r.Get<int64_t>();
  h.build = r.Get<uint64_t>();
  h.built_oldest = r.Get<int64_t>();
  h.built_newest = r.Get<int64_t>();
  h.late_in_open = r.Get<uint64_t>();
  h.sealed.keys = r.Get<uint64_t>();
  h.sealed.seed = r.Get<uint64_t>();
  h.sealed.segment_length = r.Get<uint32_t>();
  h.sealed.segment_count = r.Get<uint32_t>();
  h.sealed.fingerprint_bits = h.geometry.fingerprint_bits;
  for (LogSlot& log : h.logs) {
    log.generation = r.Get<int64_t>();
    log.chunks = r.Get<uint32_t>();
    log.keys = r.Get<uint64_t>();
  }
  if (!r.ok() || r.remaining() != 0) return Corrupt("wrong length");
  if (Status s = ValidateBloomOptions(h.options); !s.ok()) return Corrupt(s.message());
  if (h.options.generations != kFuseGenerations) return Corrupt("wrong generation count");
  PS_RETURN_IF_ERROR(ValidateFuseGeometry(h.options, h.geometry));
  if (h.watermark_ms < 0) return Corrupt("negative watermark");
  PS_RETURN_IF_ERROR(CheckState(h));
  return h;
}

}  // namespace pagesieve::store::fuse
