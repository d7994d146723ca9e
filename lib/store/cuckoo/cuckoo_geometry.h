#pragma once

#include <cstddef>
#include <cstdint>

#include "common/status_or.h"
#include "common/types.h"
#include "store/bloom/bloom_options.h"

namespace pagesieve::store::cuckoo {

// The shape of a TimeDecayedCuckoo (docs/bloom-filter.md, "The cuckoo
// filter"): buckets of four slots, each slot a fingerprint and a 3-bit
// generation tag packed into fingerprint_bits + 3 bits, two candidate
// buckets per key. Stored with the filter, never re-derived on restore.

inline constexpr int kSlotsPerBucket = 4;
inline constexpr int kTagBits = 3;
inline constexpr int kTagValues = 1 << kTagBits;
// A tag is the generation modulo 8, so at most 8 generations may be live at
// once: G + 1 <= 8.
inline constexpr int kMaxCuckooGenerations = kTagValues - 1;
// Slots in use at the design peak (every live generation holding its
// share): beyond about 95 %, random-walk insertion into 4-slot buckets starts
// to fail (Fan et al., CoNEXT 2014; DesignLoadFillsWithoutStashing in
// cuckoo_test fills to it).
inline constexpr double kDesignLoad = 0.95;
inline constexpr int kMinFingerprintBits = 4;
inline constexpr int kMaxFingerprintBits = 28;
// The least buckets per page; pages hold a power of two of buckets, so a
// page is always a whole number of bytes and no bucket straddles two.
inline constexpr uint32_t kMinBucketsPerPage = 8;

struct CuckooGeometry {
  int fingerprint_bits = 0;
  uint64_t buckets = 0;             // a multiple of buckets_per_page
  uint32_t buckets_per_page = 0;    // a power of two, at least 8
  Duration generation_width{};      // ceil(ttl / G)
  uint64_t keys_per_generation = 0; // n_g: the design share of one generation

  int slot_bits() const { return fingerprint_bits + kTagBits; }
  uint64_t slots() const { return buckets * kSlotsPerBucket; }
  uint64_t pages() const { return buckets / buckets_per_page; }
  size_t page_bytes() const {
    return size_t{buckets_per_page} * kSlotsPerBucket * static_cast<size_t>(slot_bits()) / 8;
  }
  // Bytes of slots (pages() * page_bytes()); the arena adds 8 of padding.
  size_t table_bytes() const { return pages() * page_bytes(); }
};

// Sizes the table for (G + 1) * n_g keys at kDesignLoad and picks the
// fewest fingerprint bits whose design rate is at most 0.95 of the
// configured one. InvalidArgument for options out of range or G > 7.
StatusOr<CuckooGeometry> ComputeCuckooGeometry(const BloomOptions& options);

// Checks a stored geometry against its options (Corruption when it could
// not have been computed for them).
Status ValidateCuckooGeometry(const BloomOptions& options, const CuckooGeometry& geometry);

// The rate at which an absent key matches one of the 8 slots it is compared
// with when `stored_keys` live keys fill the table: 8 * load / (2^f - 1).
double CuckooFalsePositiveRate(const CuckooGeometry& geometry, uint64_t stored_keys);

}  // namespace pagesieve::store::cuckoo
