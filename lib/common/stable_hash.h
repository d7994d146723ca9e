#pragma once

#include <cstdint>
#include <string_view>

namespace pagesieve {

// FNV-1a of `text`: the same on every platform and release, unlike
// std::hash, for names that are saved or shared (file ids, a state
// directory's part of a transactional.id). Not for untrusted keys in hash
// tables.
inline uint64_t StableHash64(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace pagesieve
