#include "store/word_array.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

namespace pagesieve::store {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kLine = 64;

size_t RoundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

// `bytes` (a multiple of kHugePage) of zero pages on a kHugePage boundary:
// map a huge page more than needed, and unmap what lies outside.
void* MapAligned(size_t bytes) {
  void* raw =
      mmap(nullptr, bytes + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  auto* base = static_cast<char*>(raw);
  const auto at = reinterpret_cast<uintptr_t>(base);
  char* aligned = base + (RoundUp(at, kHugePage) - at);
  if (aligned > base) munmap(base, static_cast<size_t>(aligned - base));
  char* end = aligned + bytes;
  const size_t tail = static_cast<size_t>(base + bytes + kHugePage - end);
  if (tail > 0) munmap(end, tail);
  madvise(aligned, bytes, MADV_HUGEPAGE);  // a hint: without THP, plain pages
  return aligned;
}

}  // namespace

WordArray::WordArray(size_t words) : size_(words) {
  if (words == 0) return;
  mapped_ = words * sizeof(uint64_t) >= kHugePage;
  bytes_ = RoundUp(words * sizeof(uint64_t), mapped_ ? kHugePage : kLine);
  void* p = mapped_ ? MapAligned(bytes_) : std::aligned_alloc(kLine, bytes_);
  if (p == nullptr) throw std::bad_alloc();
  if (!mapped_) std::memset(p, 0, bytes_);
  words_ = static_cast<uint64_t*>(p);
}

WordArray::~WordArray() { Release(); }

WordArray::WordArray(WordArray&& other) noexcept
    : words_(std::exchange(other.words_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      bytes_(std::exchange(other.bytes_, 0)),
      mapped_(std::exchange(other.mapped_, false)) {}

WordArray& WordArray::operator=(WordArray&& other) noexcept {
  if (this != &other) {
    Release();
    words_ = std::exchange(other.words_, nullptr);
    size_ = std::exchange(other.size_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
    mapped_ = std::exchange(other.mapped_, false);
  }
  return *this;
}

void WordArray::Release() {
  if (words_ == nullptr) return;
  if (mapped_) {
    munmap(words_, bytes_);
  } else {
    std::free(words_);
  }
  words_ = nullptr;
}

}  // namespace pagesieve::store
