#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace pagesieve::store::cuckoo {

// Fixed-width slots packed back to back in a byte array, slot i at bit
// i * width (little-endian bit order, so the bytes are the same on every
// little-endian host and can be persisted as they are). A slot is read with
// one unaligned 8-byte load, so the array needs 8 bytes of padding after its
// last slot and width <= 57. Not thread-safe; const reads may run
// concurrently.
class PackedSlots {
 public:
  static_assert(std::endian::native == std::endian::little, "slots are little-endian");

  PackedSlots(char* bytes, int width)
      : bytes_(bytes), width_(width), mask_((uint64_t{1} << width) - 1) {}

  uint32_t Get(uint64_t slot) const {
    const uint64_t bit = slot * static_cast<uint64_t>(width_);
    uint64_t word;
    std::memcpy(&word, bytes_ + (bit >> 3), sizeof(word));
    return static_cast<uint32_t>((word >> (bit & 7)) & mask_);
  }

  void Set(uint64_t slot, uint32_t value) {
    const uint64_t bit = slot * static_cast<uint64_t>(width_);
    char* at = bytes_ + (bit >> 3);
    uint64_t word;
    std::memcpy(&word, at, sizeof(word));
    const int shift = static_cast<int>(bit & 7);
    word = (word & ~(mask_ << shift)) | ((uint64_t{value} & mask_) << shift);
    std::memcpy(at, &word, sizeof(word));
  }

 private:
  char* bytes_;
  int width_;
  uint64_t mask_;
};

}  // namespace pagesieve::store::cuckoo
