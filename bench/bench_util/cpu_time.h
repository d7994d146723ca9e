#pragma once

#include <time.h>

namespace pagesieve::bench {

// CPU seconds of the calling thread (or the whole process): on a shared
// machine wall time mostly measures the other processes, so benchmarks
// report what one core spends ("per second per core").
inline double CpuSeconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}
inline double ThreadCpuSeconds() { return CpuSeconds(CLOCK_THREAD_CPUTIME_ID); }
inline double ProcessCpuSeconds() { return CpuSeconds(CLOCK_PROCESS_CPUTIME_ID); }

}  // namespace pagesieve::bench
