#pragma once

#include <set>

#include "common/clock.h"
#include "kafka/consumer.h"
#include "pipeline/pipeline.h"
#include "run/run_metrics.h"

namespace pagesieve::run {

// Copies what only the pipeline's thread may read into the metrics every
// metrics.sample_interval: consumer lag, shard statistics, queue depths
// (docs/metrics.md). Not thread-safe: the pipeline's thread only.
class MetricsSampler {
 public:
  MetricsSampler(RunMetrics& metrics, Duration interval, const Clock& clock)
      : metrics_(metrics), interval_(interval), clock_(clock) {}

  // Samples when the interval has passed, or now when `force`.
  void Maybe(const pipeline::Pipeline& pipeline, kafka::Consumer& consumer, int64_t producer_queue,
             bool force = false);

 private:
  void SampleLane(const pipeline::Pipeline::LaneInfo& lane, kafka::Consumer& consumer,
                  EventTime now);

  RunMetrics& metrics_;
  const Duration interval_;
  const Clock& clock_;
  Clock::SteadyTime last_{};
  std::set<PartitionId> sampled_;  // partitions whose series the last sample wrote
};

}  // namespace pagesieve::run
