#include "run/run_options.h"

#include <thread>

#include "common/time_format.h"

namespace pagesieve::run {

StatusOr<StartPosition> ParseStartPosition(const std::string& text) {
  StartPosition p;
  if (text == "earliest") {
    p.kind = StartPosition::Kind::kEarliest;
  } else if (text == "latest") {
    p.kind = StartPosition::Kind::kLatest;
  } else {
    StatusOr<EventTime> t = ParseRfc3339(text);
    if (!t.ok())
      return Status::InvalidArgument("--from must be earliest, latest or an RFC 3339 time");
    p.kind = StartPosition::Kind::kTime;
    p.time = *t;
  }
  return p;
}

StatusOr<EndPosition> ParseEndPosition(const std::string& text) {
  EndPosition p;
  if (text == "end") {
    p.kind = EndPosition::Kind::kEnd;
  } else {
    StatusOr<EventTime> t = ParseRfc3339(text);
    if (!t.ok()) return Status::InvalidArgument("--until must be end or an RFC 3339 time");
    p.kind = EndPosition::Kind::kTime;
    p.time = *t;
  }
  return p;
}

StatusOr<RunOptions> RunOptionsFromConfig(const Config& config) {
  RunOptions o;
  PS_ASSIGN_OR_RETURN(int64_t threads, config.GetInt("run.threads"));
  PS_ASSIGN_OR_RETURN(int64_t batch, config.GetInt("run.batch_records"));
  PS_ASSIGN_OR_RETURN(o.batch_linger, config.GetDuration("run.batch_linger"));
  PS_ASSIGN_OR_RETURN(o.checkpoint_interval, config.GetDuration("run.checkpoint_interval"));
  PS_ASSIGN_OR_RETURN(int64_t pending, config.GetInt("run.max_pending_bytes"));
  PS_ASSIGN_OR_RETURN(o.max_unacknowledged, config.GetInt("run.max_unacknowledged"));
  PS_ASSIGN_OR_RETURN(o.shutdown_timeout, config.GetDuration("run.shutdown_timeout"));
  PS_ASSIGN_OR_RETURN(o.progress_interval, config.GetDuration("run.progress_interval"));
  PS_ASSIGN_OR_RETURN(o.sample_interval, config.GetDuration("metrics.sample_interval"));
  if (threads < 0 || threads > 1024) return Status::InvalidArgument("run.threads must be 0..1024");
  if (batch < 1 || batch > 100'000) {
    return Status::InvalidArgument("run.batch_records must be 1..100000");
  }
  if (pending < (1 << 20)) return Status::InvalidArgument("run.max_pending_bytes must be >= 1 MiB");
  if (o.max_unacknowledged < 1)
    return Status::InvalidArgument("run.max_unacknowledged must be >= 1");
  if (o.progress_interval.count() <= 0) {
    return Status::InvalidArgument("run.progress_interval must be positive");
  }
  if (o.sample_interval < std::chrono::milliseconds(10) ||
      o.sample_interval > std::chrono::hours(1)) {
    return Status::InvalidArgument("metrics.sample_interval must be 10ms..1h");
  }
  o.threads = threads > 0 ? static_cast<int>(threads)
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  o.batch_records = static_cast<size_t>(batch);
  o.max_pending_bytes = static_cast<size_t>(pending);
  return o;
}

const char* StageName(StageKind stage) {
  switch (stage) {
    case StageKind::kRekey:
      return "rekey";
    case StageKind::kRoute:
      return "route";
    case StageKind::kUrlOwners:
      return "url";
    case StageKind::kContentOwners:
      return "content";
    case StageKind::kNearOwners:
      return "near";
    case StageKind::kDecide:
    case StageKind::kDecideRekeyed:
      break;
  }
  return "decide";
}

}  // namespace pagesieve::run
