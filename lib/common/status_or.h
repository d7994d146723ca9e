#pragma once

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include "common/status.h"

namespace pagesieve {

// Either a value or the Status saying why there is none. Accessing the value
// of a non-OK StatusOr is a bug: the process aborts, printing the status, in
// every build type (it is one predictable branch).
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  // Implicit on purpose, so functions can `return value;` or `return status;`.
  StatusOr(const T& value) : value_(value) {}                        // NOLINT
  StatusOr(T&& value) : value_(std::move(value)) {}                  // NOLINT
  StatusOr(Status status) : status_(std::move(status)) {             // NOLINT
    assert(!status_.ok() && "StatusOr needs a value or an error");
    if (status_.ok()) status_ = Status::Internal("StatusOr built from an OK status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  T& value() & {
    CheckHasValue();
    return *value_;
  }
  const T& value() const& {
    CheckHasValue();
    return *value_;
  }
  T&& value() && {
    CheckHasValue();
    return std::move(*value_);
  }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  void CheckHasValue() const {
    if (!value_.has_value()) [[unlikely]] {
      std::fprintf(stderr, "pagesieve: bug: value of a failed StatusOr used: %s\n",
                   status_.ToString().c_str());
      std::abort();
    }
  }

  Status status_;  // OK exactly when value_ holds a value
  std::optional<T> value_;
};

}  // namespace pagesieve

#define PS_STATUS_CONCAT_INNER_(a, b) a##b
#define PS_STATUS_CONCAT_(a, b) PS_STATUS_CONCAT_INNER_(a, b)

// `PS_ASSIGN_OR_RETURN(auto x, Compute());` declares x from the value, or
// returns the error from the enclosing function.
#define PS_ASSIGN_OR_RETURN(lhs, expr) \
  PS_ASSIGN_OR_RETURN_IMPL_(PS_STATUS_CONCAT_(ps_statusor_, __LINE__), lhs, expr)
#define PS_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
