#pragma once

#include <chrono>
#include <functional>
#include <thread>

namespace pagesieve::testing {

// Waits until `done` holds, checking every `poll`, for at most `timeout`;
// whether it came to hold. What tests do instead of sleeping for a while
// and hoping that was long enough.
inline bool WaitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout,
                      std::chrono::milliseconds poll = std::chrono::milliseconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(poll);
  }
  return true;
}

}  // namespace pagesieve::testing
