#include "common/clock.h"

namespace pagesieve {
namespace {

class SystemClock final : public Clock {
 public:
  WallTime Now() const override {
    return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
  }
  SteadyTime SteadyNow() const override { return std::chrono::steady_clock::now(); }
};

}  // namespace

Clock& Clock::System() {
  static SystemClock clock;
  return clock;
}

}  // namespace pagesieve
