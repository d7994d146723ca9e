#pragma once

#include <cstdint>

#include "common/status_or.h"
#include "common/types.h"
#include "store/bloom/bloom_options.h"

namespace pagesieve::store::fuse {

// The time-decayed fuse filter always cuts the TTL into 8 generations: the
// open generation's Bloom filter costs its bits over 1/G of the live keys,
// and each generation boundary rebuilds the sealed filter from all live
// keys, so more generations cost less memory and more rebuilds
// (docs/bloom-filter.md, "The fuse filter").
inline constexpr int kFuseGenerations = 8;

// Slots of the per-generation key logs: every generation that can be live
// at once (G + 1).
inline constexpr int kLogSlots = kFuseGenerations + 1;

// The measured slots per key of a binary fuse filter of a million keys or
// more, used to choose the fingerprint width.
inline constexpr double kFuseSlotsPerKey = 1.125;

// The shape of a TimeDecayedFuse, derived once from its options and stored
// with it.
struct FuseGeometry {
  int fingerprint_bits = 0;  // of the sealed filter: its rate is 2^-f
  int open_probes = 0;       // k of the open generation's blocked Bloom filter
  uint64_t open_blocks = 0;  // its 64-byte blocks
  Duration generation_width{};
  uint64_t keys_per_generation = 0;  // the design load of one generation

  uint64_t open_bytes() const { return open_blocks * 64; }
  // The expected rate at the worst moment: the sealed filter's 2^-f plus the
  // open filter's rate at its design load.
  double DesignFalsePositiveRate() const;
  friend bool operator==(const FuseGeometry&, const FuseGeometry&) = default;
};

// The fingerprint width and open filter that spend the fewest bits per live
// key while the sum of the two rates stays at kDesignMargin times the
// configured rate. `options.generations` must be kFuseGenerations.
StatusOr<FuseGeometry> ComputeFuseGeometry(const BloomOptions& options);

// Checks a geometry read back from storage against the options beside it.
Status ValidateFuseGeometry(const BloomOptions& options, const FuseGeometry& geometry);

}  // namespace pagesieve::store::fuse
