#pragma once

#include <compare>
#include <cstdint>
#include <functional>

namespace pagesieve {

// An integer that only compares and combines with its own kind, so that a
// partition id can never be passed where an offset is expected. Tag is an
// empty struct naming the kind.
template <typename Tag, typename Rep>
class StrongInt {
 public:
  using ValueType = Rep;

  constexpr StrongInt() = default;
  constexpr explicit StrongInt(Rep value) : value_(value) {}

  constexpr Rep value() const { return value_; }

  friend constexpr auto operator<=>(StrongInt, StrongInt) = default;

 private:
  Rep value_ = 0;
};

}  // namespace pagesieve

template <typename Tag, typename Rep>
struct std::hash<pagesieve::StrongInt<Tag, Rep>> {
  size_t operator()(pagesieve::StrongInt<Tag, Rep> v) const noexcept {
    return std::hash<Rep>()(v.value());
  }
};
