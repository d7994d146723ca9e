#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "common/types.h"
#include "engine/prepare_pool.h"

namespace pagesieve::pipeline {

// Prepared batches on their way from the pool's workers back to the
// pipeline's thread, which may wait for one. Thread-safe.
class CompletionQueue {
 public:
  struct Completion {
    uint64_t lane_id;  // which lane instance submitted it
    uint64_t seq;
    std::unique_ptr<engine::PrepareBatch> batch;
  };

  void Push(Completion c) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      items_.push_back(std::move(c));
    }
    ready_.notify_one();
  }
  std::vector<Completion> TakeAll() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Completion> out;
    out.swap(items_);
    return out;
  }
  // Returns once a completion is queued, or after `wait`.
  void WaitFor(Duration wait) {
    std::unique_lock<std::mutex> lock(mu_);
    ready_.wait_for(lock, wait, [this] { return !items_.empty(); });
  }

 private:
  std::mutex mu_;
  std::condition_variable ready_;
  std::vector<Completion> items_;  // guarded by mu_
};

}  // namespace pagesieve::pipeline
