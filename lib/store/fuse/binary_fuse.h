#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "store/bloom/bit_arena.h"

namespace pagesieve::store::fuse {

// The shape of a BinaryFuse, stored with its bytes (the LevelDB model).
struct FuseShape {
  uint64_t keys = 0;            // distinct keys it was built from; 0 = empty
  uint64_t seed = 0;            // the construction attempt that peeled
  uint32_t segment_length = 0;  // a power of two
  uint32_t segment_count = 0;   // windows of 3 consecutive segments
  int fingerprint_bits = 0;

  uint64_t slots() const { return (uint64_t{segment_count} + 2) * segment_length; }
  // Packed fingerprints plus 8 bytes of padding for the unaligned loads.
  size_t bytes() const { return static_cast<size_t>((slots() * fingerprint_bits + 7) / 8 + 8); }
  friend bool operator==(const FuseShape&, const FuseShape&) = default;
};

inline constexpr int kMinFingerprintBits = 4;
inline constexpr int kMaxFingerprintBits = 16;

// A static 3-wise binary fuse filter (Graf and Lemire, 2022) over 64-bit
// key hashes: an array of f-bit fingerprints such that, for every key it was
// built from, the XOR of the key's 3 slots is the key's fingerprint. A key
// not built in matches with probability 2^-f, whatever the load, at about
// 1.125 f bits per key for a million keys or more (more for fewer: small
// sets need wider segments to peel). Written for this project from the
// paper's description; the layout and hashing are our own.
//
// The 3 slots of a key lie in 3 consecutive segments of a power-of-two
// length, so construction by peeling works on a window of the array at a
// time, and a lookup reads 3 nearby lines for small filters.
//
// Immutable once built; const methods may run concurrently.
class BinaryFuse {
 public:
  // An empty filter: answers false for every key.
  BinaryFuse() = default;

  // Builds over `keys`, which may hold duplicates and any order (it is
  // sorted and deduplicated in place). ResourceExhausted when the memory
  // cannot be had; construction retries with other seeds, so it does not
  // fail otherwise.
  static StatusOr<BinaryFuse> Build(std::vector<uint64_t>* keys, int fingerprint_bits);

  // A filter of `shape` with zeroed slots, for its bytes to be loaded.
  static StatusOr<BinaryFuse> Allocate(const FuseShape& shape);
  // Corruption when the shape is not one Build() can make.
  static Status ValidateShape(const FuseShape& shape);

  bool MayContain(uint64_t key_hash) const;

  const FuseShape& shape() const { return shape_; }
  size_t MemoryBytes() const { return bytes_.size(); }
  // The packed slots (persisted as they are: little-endian, no padding).
  const char* data() const { return bytes_.data(); }
  char* mutable_data() { return bytes_.data(); }
  size_t data_bytes() const { return shape_.keys == 0 ? 0 : shape_.bytes() - 8; }

 private:
  BinaryFuse(const FuseShape& shape, bloom::BitArena bytes)
      : shape_(shape), bytes_(std::move(bytes)) {}

  FuseShape shape_;
  bloom::BitArena bytes_;
};

// The sizing the filter uses for n keys (segment length, segment count).
FuseShape ShapeFor(uint64_t keys, int fingerprint_bits, double size_factor_boost = 1.0);

}  // namespace pagesieve::store::fuse
