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
  // Routed dedup (scope.routing = "fingerprint", docs/global-routing.md):
  kRoute,          // events → records stamped with their order, to their URL's owner
  kUrlOwners,      // the URL tier, on the owners of URL digests
  kContentOwners,  // the exact tier and the verdict, on the owners of content digests
  kNearOwners,     // near lookups, on the owners of SimHash table and LSH band keys
};

// A short name for logs and transactional ids: "decide" (both deciding
// stages), "rekey", "route", "url", "content", "near".
const char* StageName(StageKind stage);

// One of routed dedup's owner stages: its input is an internal topic,
// which has no end of its own; a backfill's owner stage is done once its
// owners have seen every source end.
inline bool IsOwnerStage(StageKind stage) {
  return stage == StageKind::kUrlOwners || stage == StageKind::kContentOwners ||
         stage == StageKind::kNearOwners;
}

struct RunOptions {
  int threads = 1;
  size_t batch_records = 64;
  Duration batch_linger = std::chrono::milliseconds(10);
  Duration checkpoint_interval = std::chrono::seconds(1);
  size_t max_pending_bytes = 64u << 20;
  int64_t max_unacknowledged = 100'000;
  Duration shutdown_timeout = std::chrono::seconds(30);
  Duration progress_interval = std::chrono::seconds(30);
  Duration sample_interval = std::chrono::seconds(1);  // metrics.sample_interval
  StartPosition from;
  EndPosition until;
  StageKind stage = StageKind::kDecide;
  // kDecideRekeyed with --until: set once the re-keying stage in this process
  // finished its backfill; the loop then stops at the repartition topic's
  // ends of that moment. An owner stage's: the stage that feeds it is done
  // (then it is done once its own owners are finished).
  const std::atomic<bool>* upstream_done = nullptr;
};

// Reads [run] (threads = 0 becomes the number of cores) and
// metrics.sample_interval.
StatusOr<RunOptions> RunOptionsFromConfig(const Config& config);

}  // namespace pagesieve::run
