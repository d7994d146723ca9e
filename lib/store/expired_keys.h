#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pagesieve::store {

// Keys the compaction filter removed as expired, kept until the next
// checkpoint ships them to the changelog as tombstones, so the changelog
// forgets what the shard forgot (docs/changelog.md).
//
// Off until a changelog asks for it (nothing would take the keys). Bounded:
// past `capacity` keys are dropped and counted; a key without its tombstone
// only costs changelog space, since a restored entry that is expired is
// never returned and compaction removes it again.
//
// Thread-safe: compactions add from RocksDB's threads.
class ExpiredKeys {
 public:
  explicit ExpiredKeys(size_t capacity = 1'000'000) : capacity_(capacity) {}

  void Enable() { enabled_.store(true, std::memory_order_relaxed); }
  bool enabled() const { return enabled_.load(std::memory_order_relaxed); }

  void Add(int column_family, std::string_view key) {
    std::lock_guard<std::mutex> lock(mu_);
    if (keys_.size() >= capacity_) {
      ++dropped_;
      return;
    }
    keys_.emplace_back(column_family, std::string(key));
  }

  std::vector<std::pair<int, std::string>> Take() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(keys_, {});
  }

  uint64_t dropped() const {
    std::lock_guard<std::mutex> lock(mu_);
    return dropped_;
  }

 private:
  const size_t capacity_;
  std::atomic<bool> enabled_{false};
  mutable std::mutex mu_;
  std::vector<std::pair<int, std::string>> keys_;
  uint64_t dropped_ = 0;
};

}  // namespace pagesieve::store
