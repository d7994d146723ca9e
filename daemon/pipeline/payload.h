#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace pagesieve::pipeline {

// The bytes of one input record. A file source owns them as a string; the
// Kafka source keeps librdkafka's message alive and points into it, because
// copying every payload cost the daemon a fifth of its CPU on a backlog
// (the copy's page faults, docs/benchmarks.md). Either way the bytes stay
// put while the Payload lives, and moving it does not move them.
class Payload {
 public:
  Payload() = default;
  Payload(std::string owned) : owned_(std::move(owned)) {}  // NOLINT: a string is a payload
  Payload(const char* owned) : owned_(owned) {}              // NOLINT
  // `bytes` must stay valid while `keeper` does.
  static Payload Borrowed(std::string_view bytes, std::shared_ptr<const void> keeper) {
    Payload p;
    p.borrowed_ = bytes;
    p.keeper_ = std::move(keeper);
    return p;
  }

  std::string_view view() const { return keeper_ ? borrowed_ : std::string_view(owned_); }
  operator std::string_view() const { return view(); }  // NOLINT: read as bytes
  const char* data() const { return view().data(); }
  size_t size() const { return view().size(); }
  bool empty() const { return size() == 0; }
  friend bool operator==(const Payload& a, std::string_view b) { return a.view() == b; }

 private:
  std::string owned_;
  std::string_view borrowed_;
  std::shared_ptr<const void> keeper_;  // set when borrowed
};

}  // namespace pagesieve::pipeline
