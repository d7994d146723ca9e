#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status_or.h"
#include "store/bloom/bloom_options.h"
#include "store/bloom/generations.h"
#include "store/fuse/binary_fuse.h"
#include "store/fuse/fuse_geometry.h"

namespace pagesieve::store::fuse {

// The persisted form of a TimeDecayedFuse (docs/bloom-filter.md has the
// layout): a header (magic PSFUSE) with the options, geometry, watermark,
// the sealed filter's shape and build, and each key log's generation and
// length; and three kinds of page, each with bloom_format.h's 16-byte
// prefix (parameter tag, page id, stamp):
//   sealed pages  [0, kOpenPageBase)            64 KiB of packed fingerprints, stamp = build
//   open pages    [kOpenPageBase, kLogPageBase)  one 64-byte Bloom block, stamp = build
//   log chunks    [kLogPageBase, 2^32)           up to 8,192 keys, stamp = their generation
// Little-endian; decoding validates everything.

inline constexpr uint32_t kFuseFormatVersion = 1;
inline constexpr uint32_t kOpenPageBase = uint32_t{1} << 28;
inline constexpr uint32_t kLogPageBase = uint32_t{1} << 31;
inline constexpr uint32_t kSealedPageBytes = 64 * 1024;
inline constexpr uint32_t kOpenPageBytes = 64;
inline constexpr uint32_t kLogChunkKeys = 8192;
inline constexpr uint32_t kMaxLogChunks = uint32_t{1} << 24;

constexpr uint32_t LogPageId(int slot, uint32_t chunk) {
  return kLogPageBase | (static_cast<uint32_t>(slot) << 24) | chunk;
}

// One generation's keys: `chunks` pages in the store (each insert's key,
// duplicates included), plus what was inserted since the last checkpoint.
struct LogSlot {
  int64_t generation = bloom::kNoGeneration;
  uint32_t chunks = 0;
  uint64_t keys = 0;
  friend bool operator==(const LogSlot&, const LogSlot&) = default;
};

struct FuseHeader {
  BloomOptions options;
  FuseGeometry geometry;
  int64_t watermark_ms = 0;
  uint64_t build = 0;  // rebuilds so far: stamps the sealed and open pages
  int64_t built_oldest = 0;
  int64_t built_newest = 0;  // the open generation; sealed are [built_oldest, built_newest)
  uint64_t late_in_open = 0;
  FuseShape sealed;
  std::array<LogSlot, kLogSlots> logs{};
};

bool IsFuseHeader(std::string_view bytes);
std::string EncodeFuseHeader(const FuseHeader& header);
StatusOr<FuseHeader> DecodeFuseHeader(std::string_view bytes);

// 32 bits of a hash of the options and geometry, stamped on every page.
uint32_t FuseParameterTag(const BloomOptions& options, const FuseGeometry& geometry);

}  // namespace pagesieve::store::fuse
