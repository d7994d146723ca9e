#pragma once

#include <atomic>
#include <cstdint>
#include <limits>

#include "common/types.h"

namespace pagesieve::store {

// The oldest last_seen (ms) still live at `watermark_ms` for `ttl`: an entry
// is live while last_seen >= watermark - ttl. Saturates instead of
// overflowing, so hostile event times cannot wrap the comparison.
inline int64_t LiveCutoff(int64_t watermark_ms, Duration ttl) {
  int64_t cutoff = 0;
  if (__builtin_sub_overflow(watermark_ms, ttl.count(), &cutoff)) {
    return ttl.count() > 0 ? std::numeric_limits<int64_t>::min()
                           : std::numeric_limits<int64_t>::max();
  }
  return cutoff;
}

inline bool IsLive(EventTime last_seen, EventTime watermark, Duration ttl) {
  return ToMillis(last_seen) >= LiveCutoff(ToMillis(watermark), ttl);
}

// The watermark of the last durable checkpoint, read by compaction filters on
// RocksDB's background threads. Compaction may only remove what is dead at a
// watermark that survives a crash: removing what is dead at a newer,
// uncheckpointed watermark would change the state a restart returns to.
// Thread-safe.
class DurableWatermark {
 public:
  // Until the shard's metadata is read nothing is known to be dead.
  static constexpr int64_t kUnknown = std::numeric_limits<int64_t>::min();

  int64_t Get() const { return ms_.load(std::memory_order_acquire); }
  void Publish(int64_t ms) { ms_.store(ms, std::memory_order_release); }

 private:
  std::atomic<int64_t> ms_{kUnknown};
};

}  // namespace pagesieve::store
