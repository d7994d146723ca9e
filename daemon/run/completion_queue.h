#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "engine/prepare_pool.h"

namespace pagesieve::run {

// Prepared batches on their way from the pool's workers back to the run
// loop's thread. Thread-safe.
class CompletionQueue {
 public:
  struct Completion {
    uint64_t pipeline_id;  // which pipeline instance submitted it
    uint64_t seq;
    std::unique_ptr<engine::PrepareBatch> batch;
  };

  void Push(Completion c) {
    std::lock_guard<std::mutex> lock(mu_);
    items_.push_back(std::move(c));
  }
  std::vector<Completion> TakeAll() {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Completion> out;
    out.swap(items_);
    return out;
  }

 private:
  std::mutex mu_;
  std::vector<Completion> items_;  // guarded by mu_
};

}  // namespace pagesieve::run
