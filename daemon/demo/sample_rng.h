#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace pagesieve::demo {

// The sample crawl's randomness. std::mt19937_64 is specified bit for bit by
// the standard, but the std distributions are not (libstdc++ and libc++
// differ), so the helpers below reduce its output themselves: the same seed
// gives the same crawl with any standard library. Not thread-safe.
class SampleRng {
 public:
  explicit SampleRng(uint64_t seed) : engine_(seed) {}

  uint64_t Next() { return engine_(); }
  // Uniform in [0, n) for n > 0 (the modulo bias is irrelevant for n this small).
  size_t Below(size_t n) { return static_cast<size_t>(engine_() % n); }
  // Uniform in [lo, hi].
  int Between(int lo, int hi) {
    return lo + static_cast<int>(Below(static_cast<size_t>(hi - lo + 1)));
  }
  // True with probability percent / 100.
  bool Percent(int percent) { return Below(100) < static_cast<size_t>(percent); }

  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[Below(items.size())];
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace pagesieve::demo
