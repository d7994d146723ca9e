#include "store/bloom/filter_header.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace pagesieve::store {
namespace {

constexpr size_t kMagicBytes = 8;
constexpr size_t kVersionBytes = 4;
constexpr size_t kChecksumBytes = 8;

}  // namespace

Status FilterHeaderFrame::Corrupt(std::string_view what) const {
  return Status::Corruption(std::string(name) + ": " + std::string(what));
}

void PutFilterPreamble(const FilterHeaderFrame& frame, const BloomOptions& o, std::string* out) {
  out->append(frame.magic.data(), kMagicBytes);
  PutFixedField<uint32_t>(out, frame.version);
  PutFixedField<uint64_t>(out, o.expected_items);
  PutFixedField<uint64_t>(out, std::bit_cast<uint64_t>(o.false_positive_rate));
  PutFixedField<uint32_t>(out, static_cast<uint32_t>(o.generations));
  PutFixedField<int64_t>(out, o.ttl.count());
  PutFixedField<uint32_t>(out, static_cast<uint32_t>(o.page_bytes));
}

void GetFilterOptions(const FilterHeaderFrame& frame, FixedFieldReader& r, BloomOptions* o) {
  o->expected_items = r.Get<uint64_t>();
  o->false_positive_rate = std::bit_cast<double>(r.Get<uint64_t>());
  const uint32_t generations = r.Get<uint32_t>();
  o->generations = generations > static_cast<uint32_t>(frame.max_generations)
                       ? -1
                       : static_cast<int>(generations);
  o->ttl = Duration(r.Get<int64_t>());
  o->page_bytes = r.Get<uint32_t>();
}

void AppendFilterChecksum(std::string* out) {
  PutFixedField<uint64_t>(out, XXH3_64bits(out->data(), out->size()));
}

uint32_t FilterParameterTag(std::string_view parameters) {
  return static_cast<uint32_t>(XXH3_64bits(parameters.data(), parameters.size()));
}

bool HasFilterMagic(const FilterHeaderFrame& frame, std::string_view bytes) {
  return bytes.size() >= kMagicBytes &&
         std::memcmp(bytes.data(), frame.magic.data(), kMagicBytes) == 0;
}

StatusOr<FixedFieldReader> OpenFilterHeader(const FilterHeaderFrame& frame, std::string_view bytes,
                                            size_t min_bytes) {
  if (!HasFilterMagic(frame, bytes)) return frame.Corrupt("bad magic");
  min_bytes = std::max(min_bytes, kMagicBytes + kVersionBytes + kChecksumBytes);
  if (bytes.size() < min_bytes) {
    return frame.Corrupt(std::to_string(bytes.size()) + " bytes is too short");
  }
  FixedFieldReader r(bytes.substr(kMagicBytes, bytes.size() - kMagicBytes - kChecksumBytes));
  if (const uint32_t version = r.Get<uint32_t>(); version != frame.version) {
    return Status::FailedPrecondition(
        std::string(frame.name) + ": format version " + std::to_string(version) +
        ", this build reads version " + std::to_string(frame.version) +
        "; reset the shard (delete its directory: it is rebuilt from the input) or run the "
        "pagesieve build that wrote it");
  }
  const std::string_view body = bytes.substr(0, bytes.size() - kChecksumBytes);
  uint64_t stored = 0;
  std::memcpy(&stored, bytes.data() + body.size(), kChecksumBytes);
  if (XXH3_64bits(body.data(), body.size()) != stored) return frame.Corrupt("checksum mismatch");
  return r;
}

}  // namespace pagesieve::store
