#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "store/bloom/bloom_geometry.h"
#include "store/bloom/bloom_options.h"
#include "store/bloom/generations.h"

namespace pagesieve::store::bloom {

// The persisted form of a TimeDecayedBloom (docs/bloom-filter.md has the
// byte layout): one header holding everything needed to rebuild the filter
// (options, derived geometry, watermark, which generation each slot holds),
// and fixed-size pages of bits, each stamped with the header's parameter
// tag, its page id and the generation its bits belong to. All integers are
// little-endian. Decoding validates everything: a truncated, foreign or
// corrupted input is an error, never a crash.

inline constexpr uint32_t kBloomFormatVersion = 1;

struct SlotState {
  int64_t generation = kNoGeneration;  // or the generation whose bits it holds
  uint64_t inserts = 0;                // Insert() calls that reached it, duplicates included
  friend bool operator==(const SlotState&, const SlotState&) = default;
};

struct BloomHeader {
  BloomOptions options;
  BloomGeometry geometry;
  int64_t watermark_ms = 0;
  std::vector<SlotState> slots;  // geometry.slots entries
};

std::string EncodeBloomHeader(const BloomHeader& header);
StatusOr<BloomHeader> DecodeBloomHeader(std::string_view bytes);

// 32 bits of a hash of the parameter part of the header. Pages carry it, so
// a page of another filter (other options, other format) is recognised.
uint32_t BloomParameterTag(const BloomOptions& options, const BloomGeometry& geometry);

inline constexpr size_t kPagePrefixBytes = 16;

struct PagePrefix {
  uint32_t tag = 0;
  uint32_t page_id = 0;
  int64_t generation = 0;
};

// Appends the 16-byte prefix; the caller appends the page's bits.
void AppendPagePrefix(const PagePrefix& prefix, std::string* out);
// Reads the prefix of an encoded page, checking that the page is exactly
// prefix plus `page_bytes` long.
StatusOr<PagePrefix> DecodePagePrefix(std::string_view page, size_t page_bytes);

}  // namespace pagesieve::store::bloom
