#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "store/bloom/bloom_options.h"
#include "store/cuckoo/cuckoo_geometry.h"

namespace pagesieve::store::cuckoo {

// The persisted form of a TimeDecayedCuckoo (docs/bloom-filter.md has the
// byte layout): a header with the options, the stored geometry, the
// watermark and the stash, and pages of packed slots stamped like the Bloom
// filter's pages (bloom_format.h's 16-byte prefix: parameter tag, page id,
// and the newest generation when the page was written, which is what its
// 3-bit tags are read against). Little-endian; decoding validates
// everything, and a header of another structure (the Bloom filter's) is
// recognised by its magic.

inline constexpr uint32_t kCuckooFormatVersion = 1;

// A key that found no slot when the table was full: kept beside the table so
// that no live key is lost (TimeDecayedCuckoo::stashed()).
struct StashEntry {
  uint64_t bucket = 0;
  uint32_t value = 0;  // fingerprint << 3 | tag, as in a slot
  friend bool operator==(const StashEntry&, const StashEntry&) = default;
};

struct CuckooHeader {
  BloomOptions options;
  CuckooGeometry geometry;
  int64_t watermark_ms = 0;
  std::vector<StashEntry> stash;
};

// Whether `bytes` starts like a cuckoo header (to tell it from a Bloom one).
bool IsCuckooHeader(std::string_view bytes);

std::string EncodeCuckooHeader(const CuckooHeader& header);
StatusOr<CuckooHeader> DecodeCuckooHeader(std::string_view bytes);

// 32 bits of a hash of the parameter part of the header, stamped on pages.
uint32_t CuckooParameterTag(const BloomOptions& options, const CuckooGeometry& geometry);

}  // namespace pagesieve::store::cuckoo
