#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "common/status_or.h"

namespace pagesieve::store::bloom {

// Deleter of a BitArena's mapping.
struct Unmapper {
  size_t bytes = 0;
  void operator()(char* p) const;
};

// A zero-filled, page-aligned block of memory for filter bits, released on
// destruction. Large arenas ask the kernel for transparent huge pages: a
// lookup touches G + 1 random cache lines of a filter that can be hundreds
// of megabytes, and with 4 KiB pages most of those also miss the TLB
// (docs/bloom-filter.md has the measurement).
//
// Not thread-safe; move-only.
class BitArena {
 public:
  // Fails with ResourceExhausted when the memory cannot be had.
  static StatusOr<BitArena> Allocate(size_t bytes);

  BitArena() = default;

  char* data() { return data_.get(); }
  const char* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  BitArena(char* data, size_t size) : data_(data, Unmapper{size}), size_(size) {}

  std::unique_ptr<char, Unmapper> data_;
  size_t size_ = 0;
};

}  // namespace pagesieve::store::bloom
