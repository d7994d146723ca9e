#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "config/config.h"
#include "demo/demo_summary.h"
#include "demo/sample_crawl.h"

namespace pagesieve::demo {

struct DemoOptions {
  std::optional<std::string> bootstrap;  // a real broker; none: the mock cluster
  SampleOptions sample;
  int partitions = 4;                           // of the topics the demo creates
  Duration timeout = std::chrono::seconds(60);  // producing, topic creation, reading back
};

// Loads the configuration with the demo's settings as the first --set
// overrides, so the user's own --set still win.
using ConfigLoader =
    std::function<StatusOr<Config>(const std::vector<std::string>& demo_overrides)>;

struct DemoResult {
  DemoSummary summary;
  DemoContext context;
  bool run_complete = false;  // the backfill reached the end of every partition
};

// `pagesieve demo`: the sample crawl through the daemon's real code path.
// Starts the mock cluster (or uses `bootstrap`, with topics of its own named
// pagesieve-demo-<id>-*, deleted afterwards), creates the topics, produces
// the sample, runs run::KafkaStage as a backfill (--from earliest --until end)
// with a temporary state directory, reads the verdicts back and sets them
// against the labels. Runs on the caller's thread; `stop` (SIGINT) ends the
// run early.
StatusOr<DemoResult> RunDemo(const DemoOptions& options, const ConfigLoader& load,
                             const Clock& clock, const std::atomic<bool>& stop);

// `pagesieve demo --produce-only`: produces the sample to the configured
// kafka.input_topic at `bootstrap` and returns the number of events (for
// docker/compose.yaml, where `pagesieve run` consumes it).
StatusOr<int64_t> ProduceDemoSample(const DemoOptions& options, const ConfigLoader& load);

}  // namespace pagesieve::demo
