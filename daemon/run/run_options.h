#pragma once

#include <atomic>
#include <string>

#include "common/status_or.h"
#include "common/types.h"
#include "config/config.h"

namespace pagesieve::run {

// Where each partition starts. kCheckpoint resumes from the shard's last
// checkpoint (else the group's committed offset, else the earliest); the
// others are a backfill's --from, applied the first time this process is
// assigned a partition.
struct StartPosition {
  enum class Kind { kCheckpoint, kEarliest, kLatest, kTime };
  Kind kind = Kind::kCheckpoint;
  EventTime time{};
};

// Where a backfill stops (--until): kForever runs as a daemon; kEnd stops
// each partition at the end it had when the run started; kTime at the first
// record stamped at or after `time`.
struct EndPosition {
  enum class Kind { kForever, kEnd, kTime };
  Kind kind = Kind::kForever;
  EventTime time{};
};

StatusOr<StartPosition> ParseStartPosition(const std::string& text);  // earliest|latest|RFC 3339
StatusOr<EndPosition> ParseEndPosition(const std::string& text);      // end|RFC 3339

// Which stage of the daemon a KafkaStage is (docs/rekey.md).
enum class StageKind {
  kDecide,         // the input is partitioned by scope: events → verdicts
  kRekey,          // events → repartition records keyed by scope; no state
  kDecideRekeyed,  // repartition records → verdicts
};

struct RunOptions {
  int threads = 1;
  size_t batch_records = 64;
  Duration batch_linger = std::chrono::milliseconds(10);
  Duration checkpoint_interval = std::chrono::seconds(1);
  size_t max_pending_bytes = 256u << 20;
  int64_t max_unacknowledged = 100'000;
  Duration shutdown_timeout = std::chrono::seconds(30);
  Duration progress_interval = std::chrono::seconds(30);
  Duration sample_interval = std::chrono::seconds(1);  // metrics.sample_interval
  StartPosition from;
  EndPosition until;
  StageKind stage = StageKind::kDecide;
  // kDecideRekeyed with --until: set once the re-keying stage in this process
  // finished its backfill; the loop then stops at the repartition topic's
  // ends of that moment.
  const std::atomic<bool>* upstream_done = nullptr;
};

// Reads [run] (threads = 0 becomes the number of cores) and
// metrics.sample_interval.
StatusOr<RunOptions> RunOptionsFromConfig(const Config& config);

}  // namespace pagesieve::run
