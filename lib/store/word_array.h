#pragma once

#include <cstddef>
#include <cstdint>

namespace pagesieve::store {

// A zeroed, fixed-size array of 64-bit words on cache-line boundaries, for
// the large tables of LshIndex. Arrays of 2 MiB or more come straight from
// the kernel (already zero: no pass to clear them) on 2 MiB boundaries,
// marked for transparent huge pages (MADV_HUGEPAGE; ignored where they are
// off): a lookup that reads 25 random lines of a multi-gigabyte table then
// misses the TLB far less. Smaller ones come from the allocator.
//
// Move-only; throws std::bad_alloc when memory runs out, as std::vector does.
class WordArray {
 public:
  WordArray() = default;
  explicit WordArray(size_t words);
  ~WordArray();
  WordArray(WordArray&& other) noexcept;
  WordArray& operator=(WordArray&& other) noexcept;
  WordArray(const WordArray&) = delete;
  WordArray& operator=(const WordArray&) = delete;

  uint64_t* data() { return words_; }
  const uint64_t* data() const { return words_; }
  uint64_t& operator[](size_t i) { return words_[i]; }
  uint64_t operator[](size_t i) const { return words_[i]; }
  size_t size() const { return size_; }
  // Bytes held, rounding included.
  size_t bytes() const { return bytes_; }

 private:
  void Release();

  uint64_t* words_ = nullptr;
  size_t size_ = 0;
  size_t bytes_ = 0;
  bool mapped_ = false;  // from mmap (else from aligned_alloc)
};

}  // namespace pagesieve::store
