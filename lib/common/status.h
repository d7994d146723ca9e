#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace pagesieve {

// What went wrong, in categories the caller can act on. Keep this list short:
// callers branch on codes, humans read messages.
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // bad input: malformed record, URL, config value
  kNotFound,            // a looked-up thing does not exist
  kAlreadyExists,
  kFailedPrecondition,  // the system is not in a state to do this (e.g. shard locked)
  kOutOfRange,
  kResourceExhausted,   // a bound was hit (queue full, body too large)
  kUnavailable,         // transient: broker down, retry may help
  kDeadlineExceeded,
  kCorruption,          // stored data is not what we wrote
  kIoError,             // the operating system said no
  kAborted,             // stopped on request (shutdown)
  kInternal,            // a bug: an invariant did not hold
};

std::string_view StatusCodeName(StatusCode code);

// The result of an operation that can fail, in the manner of leveldb::Status:
// cheap when OK (one null pointer), carries a code and a message otherwise.
// Thread-compatible: a const Status may be read from several threads.
class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string_view message);

  Status(const Status& other);
  Status& operator=(const Status& other);
  Status(Status&&) noexcept = default;
  Status& operator=(Status&&) noexcept = default;

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string_view msg) { return {StatusCode::kInvalidArgument, msg}; }
  static Status NotFound(std::string_view msg) { return {StatusCode::kNotFound, msg}; }
  static Status AlreadyExists(std::string_view msg) { return {StatusCode::kAlreadyExists, msg}; }
  static Status FailedPrecondition(std::string_view msg) {
    return {StatusCode::kFailedPrecondition, msg};
  }
  static Status OutOfRange(std::string_view msg) { return {StatusCode::kOutOfRange, msg}; }
  static Status ResourceExhausted(std::string_view msg) {
    return {StatusCode::kResourceExhausted, msg};
  }
  static Status Unavailable(std::string_view msg) { return {StatusCode::kUnavailable, msg}; }
  static Status DeadlineExceeded(std::string_view msg) {
    return {StatusCode::kDeadlineExceeded, msg};
  }
  static Status Corruption(std::string_view msg) { return {StatusCode::kCorruption, msg}; }
  static Status IoError(std::string_view msg) { return {StatusCode::kIoError, msg}; }
  static Status Aborted(std::string_view msg) { return {StatusCode::kAborted, msg}; }
  static Status Internal(std::string_view msg) { return {StatusCode::kInternal, msg}; }

  bool ok() const { return rep_ == nullptr; }
  StatusCode code() const { return rep_ ? rep_->code : StatusCode::kOk; }
  // Empty when OK.
  const std::string& message() const;
  // "OK" or "<code name>: <message>".
  std::string ToString() const;

  // The same status with "<context>: " put in front of its message; OK stays OK.
  // Used to say where an error happened as it travels up ("shard orders-3: ...").
  Status WithContext(std::string_view context) const;

  friend bool operator==(const Status& a, const Status& b) {
    return a.code() == b.code() && a.message() == b.message();
  }

 private:
  struct Rep {
    StatusCode code;
    std::string message;
  };
  std::unique_ptr<Rep> rep_;
};

}  // namespace pagesieve

// Returns from the enclosing function when `expr` (a Status) is not OK.
#define PS_RETURN_IF_ERROR(expr)                    \
  do {                                              \
    ::pagesieve::Status ps_status_ = (expr);        \
    if (!ps_status_.ok()) return ps_status_;        \
  } while (0)
