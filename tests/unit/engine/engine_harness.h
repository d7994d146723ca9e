#pragma once

// A harness for engine scenario tests: builds events, runs them through the
// real preparer, decider and a RocksDB shard in a temporary directory.

#include <gmock/gmock.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/clock.h"
#include "config/config.h"
#include "engine/decider.h"
#include "engine/engine_options.h"
#include "engine/record_preparer.h"
#include "store/state_env.h"

namespace pagesieve::engine {
// gtest prints verdicts as their JSON.
inline void PrintTo(const Verdict& v, std::ostream* os) { *os << EncodeVerdictJson(v); }
}  // namespace pagesieve::engine

namespace pagesieve::engine::testing {

// 2026-11-20T10:00:00Z, the day scenarios start.
inline constexpr int64_t kT0 = 1'795'168'800'000;
inline constexpr int64_t kMinute = 60'000;
inline constexpr int64_t kHour = 60 * kMinute;
inline constexpr int64_t kDay = 24 * kHour;

struct EventSpec {
  std::string url;
  int64_t time_ms = kT0;
  std::optional<std::string> text;  // pre-extracted text
  std::optional<std::string> body;  // HTML body
  int status = 200;
  std::string event_id;
};

std::string EventJson(const EventSpec& e);

MATCHER(IsUnique, "") { return arg.decision.kind == VerdictKind::kUnique && !arg.decision.tier; }
MATCHER_P2(IsDuplicateOf, tier, event_id, "") {
  return arg.decision.kind == VerdictKind::kDuplicate && arg.decision.tier == tier &&
         arg.decision.duplicate_of && arg.decision.duplicate_of->event_id == event_id;
}

// `words` words of deterministic pseudo-prose from `seed`: distinct seeds
// give unrelated texts.
std::string Prose(int seed, int words = 120);

// Replaces word `index` of `text` with `replacement`.
std::string ReplaceWord(const std::string& text, int index, const std::string& replacement);

class EngineHarness {
 public:
  // `config_toml` is merged over the built-in defaults.
  explicit EngineHarness(const std::string& config_toml = "");
  ~EngineHarness();

  // Prepares and decides one event as the next record of partition 0 (or at
  // an explicit offset, to replay). Prepare errors are returned as is.
  StatusOr<Verdict> Process(const EventSpec& event, std::optional<int64_t> offset = {});
  // Process() that must succeed.
  Verdict Must(const EventSpec& event, std::optional<int64_t> offset = {});

  store::Shard& shard() { return *shard_; }
  const EngineOptions& options() const { return options_; }
  ManualClock& clock() { return clock_; }
  // Checkpoints, closes and reopens the shard (as after a restart).
  void Reopen();

 private:
  std::filesystem::path dir_;
  ManualClock clock_;
  EngineOptions options_;
  std::unique_ptr<store::StateEnv> env_;
  std::unique_ptr<store::Shard> shard_;
  std::unique_ptr<RecordPreparer> preparer_;
  std::unique_ptr<Decider> decider_;
  int64_t next_offset_ = 0;
};

}  // namespace pagesieve::engine::testing
