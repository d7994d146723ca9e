#include "store/bloom/bit_arena.h"

#include <sys/mman.h>

#include <string>

namespace pagesieve::store::bloom {
namespace {

constexpr size_t kHugePage = size_t{2} << 20;

}  // namespace

void Unmapper::operator()(char* p) const {
  if (p != nullptr) munmap(p, bytes);
}

// Anonymous mappings come zeroed and are only backed by memory once
// touched. The advice is a hint: the kernel may have huge pages disabled,
// in which case the arena works the same with small pages.
StatusOr<BitArena> BitArena::Allocate(size_t bytes) {
  if (bytes == 0) return BitArena();
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) {
    return Status::ResourceExhausted("bloom: cannot map " + std::to_string(bytes) +
                                     " bytes for filter bits");
  }
#ifdef MADV_HUGEPAGE
  if (bytes >= kHugePage) madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return BitArena(static_cast<char*>(p), bytes);
}

}  // namespace pagesieve::store::bloom
