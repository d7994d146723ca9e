#pragma once

#include <cstdint>

#include "common/status_or.h"
#include "common/types.h"
#include "store/bloom/bloom_options.h"

namespace pagesieve::store::bloom {

inline constexpr uint32_t kBlockBytes = 64;  // one cache line
inline constexpr int kMaxProbes = 24;
// The block index is a 32-bit multiply-shift of the hash, and page ids are
// 32-bit: these bound one filter. Memory is capped at 256 GiB besides.
inline constexpr uint64_t kMaxBlocksPerSlot = uint64_t{1} << 32;
inline constexpr uint64_t kMaxPages = (uint64_t{1} << 32) - 1;
inline constexpr uint64_t kMaxBitBytes = uint64_t{1} << 38;
// Generations are sized so that the expected rate with every slot at its
// design load is this fraction of the configured rate: a measurement over
// 10^6 probes at 1 % (sigma 1 %) then lands below the configured rate with
// a margin of five standard deviations. It costs 0.07 bits per key.
inline constexpr double kDesignMargin = 0.95;

// The shape of a TimeDecayedBloom, derived once from its options and then
// stored with its bits (the LevelDB model: a reader never re-derives it, so
// a later change to the sizing cannot misread old state).
//
// Memory is `groups` groups; a group holds one page of every slot, so the
// G + 1 blocks a lookup reads lie within slots * page_bytes bytes.
struct BloomGeometry {
  int slots = 0;  // G + 1: generations that can be live at once
  int num_probes = 0;
  uint32_t page_bytes = 0;
  uint64_t groups = 0;
  Duration generation_width{};
  uint64_t keys_per_generation = 0;  // the design load of one generation

  uint32_t blocks_per_page() const { return page_bytes / kBlockBytes; }
  uint64_t blocks_per_slot() const { return groups * blocks_per_page(); }
  uint64_t page_count() const { return groups * static_cast<uint64_t>(slots); }
  uint64_t bit_bytes() const { return page_count() * page_bytes; }
  // The expected false-positive rate when all slots hold their design load.
  double DesignFalsePositiveRate() const;
  friend bool operator==(const BloomGeometry&, const BloomGeometry&) = default;
};

// ceil(ttl / G): never less than ttl / G, so G + 1 slots always cover the
// live window.
Duration GenerationWidth(const BloomOptions& options);
// Keys a generation receives when expected_items arrive evenly over ttl.
uint64_t KeysPerGeneration(const BloomOptions& options);

// Chooses the number of probes and the number of blocks per generation that
// use the least memory while the union of G + 1 generations at design load
// stays at kDesignMargin times the configured rate. Options must be valid.
StatusOr<BloomGeometry> ComputeGeometry(const BloomOptions& options);

// The probe count and block count of one blocked filter (a single
// generation) holding `keys` keys at `target` expected rate, using the least
// memory; num_probes 0 when none reaches it. The fuse filter's open
// generation is such a filter.
struct BlockedSizing {
  int num_probes = 0;
  uint64_t blocks = 0;
};
BlockedSizing SizeBlockedFilter(double target, uint64_t keys);

// Checks a geometry read back from storage: internally consistent, within
// the limits, and matching the options stored beside it.
Status ValidateGeometry(const BloomOptions& options, const BloomGeometry& geometry);

}  // namespace pagesieve::store::bloom
