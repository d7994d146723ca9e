#pragma once

#include <optional>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"

namespace pagesieve::run {

// Finds how far a changelog partition's latest complete checkpoint reaches
// into the input, by reading its tail: what decides whether a local shard the
// changelog did not write is ahead of it (docs/changelog.md, "Seeding").
//
// A checkpoint ends with its marker, so the latest marker is almost always
// among the last records: the first window is the last kWindow records, and
// only when it holds no marker nor snapshot record (a writer died after
// shipping that many records past its last marker) does the probe read
// further back, a window twice as long each time, down to the low offset.
// Within a window the records count in order: a snapshot record voids the
// markers before it, and the highest marker after the last one wins, as in a
// restore (a stale writer's marker never takes a checkpoint back).
//
// Not thread-safe.
class ChangelogProbe {
 public:
  static constexpr int64_t kWindow = 1024;

  ChangelogProbe(Offset low, Offset high);

  // The window to read now: records at offsets [from, to).
  Offset from() const { return from_; }
  Offset to() const { return to_; }

  // A record of the window, in offset order. A malformed marker is
  // Corruption.
  Status Add(std::string_view key, std::optional<std::string_view> value);
  // The window has been read. True when the answer is known; false when the
  // probe moved to the window before (read it).
  bool WindowDone();

  // Once done: the input offset the latest complete checkpoint resumes at;
  // empty when the changelog holds none (none at all, or its latest
  // snapshot has no marker after it).
  std::optional<Offset> latest() const { return latest_; }

 private:
  Offset low_;
  Offset from_, to_;
  int64_t window_ = kWindow;
  bool found_ = false;  // a marker or a snapshot record in the window
  std::optional<Offset> latest_;
};

}  // namespace pagesieve::run
