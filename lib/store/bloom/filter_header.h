#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "common/status_or.h"
#include "store/bloom/bloom_options.h"
#include "store/fixed_fields.h"

namespace pagesieve::store {

// The frame every URL filter's persisted header shares (bloom/, cuckoo/,
// fuse/ each write its own fields inside it):
//
//   magic (8 bytes) | format version (u32) | BloomOptions | geometry | state | XXH3-64
//
// The magic names the structure, so a shard's header is never read as
// another's. Magic, version, options and geometry are the parameters: their
// tag (FilterParameterTag) is stamped on every persisted page, so a page of
// other parameters is never read into the filter. The checksum covers
// everything before it.
struct FilterHeaderFrame {
  std::string_view name;   // what its errors begin with: "fuse header"
  std::string_view magic;  // exactly 8 bytes
  uint32_t version;        // the format this build writes and reads
  int max_generations;     // a stored generation count above it reads as -1

  // Corruption, prefixed with `name`.
  Status Corrupt(std::string_view what) const;
};

// Starts a header, or the parameters a tag covers: magic, version, options.
void PutFilterPreamble(const FilterHeaderFrame& frame, const BloomOptions& options,
                       std::string* out);
// Reads the options PutFilterPreamble wrote. Values that do not fit their
// C++ type are left out of range, for validation to reject.
void GetFilterOptions(const FilterHeaderFrame& frame, FixedFieldReader& r, BloomOptions* options);
// Ends a header: the checksum of everything in `out`.
void AppendFilterChecksum(std::string* out);
// The tag of a structure's parameters (its preamble and geometry).
uint32_t FilterParameterTag(std::string_view parameters);

bool HasFilterMagic(const FilterHeaderFrame& frame, std::string_view bytes);
// Checks the magic, that `bytes` holds at least `min_bytes`, the version
// (before the checksum: a header of a later format gets the clearer error,
// with what to do about it) and the checksum. Returns a reader over the
// options and what follows them, the checksum left out.
StatusOr<FixedFieldReader> OpenFilterHeader(const FilterHeaderFrame& frame, std::string_view bytes,
                                            size_t min_bytes);

}  // namespace pagesieve::store
