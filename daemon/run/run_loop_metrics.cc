// The run loop's periodic sample of figures that only its thread may read:
// consumer positions, shard statistics, queue depths.
#include <librdkafka/rdkafkacpp.h>

#include "run/run_loop.h"

namespace pagesieve::run {

void RunLoop::SampleMetrics(bool force) {
  const Clock::SteadyTime now = clock_.SteadyNow();
  if (!force && now - last_sample_ < run_.sample_interval) return;
  last_sample_ = now;
  const EventTime wall = EventTime::FromWallClock(clock_.Now());
  size_t pending = 0;
  int paused = 0;
  std::set<PartitionId> sampled;
  for (const auto& [p, a] : assigned_) {
    SamplePartition(p, a, wall);
    pending += a.pipeline->pending_bytes();
    paused += a.paused ? 1 : 0;
    sampled.insert(p);
  }
  // Partitions revoked, lost or finished since: their series go away.
  for (PartitionId p : sampled_) {
    if (!sampled.count(p)) metrics_->RemovePartition(p);
  }
  sampled_ = std::move(sampled);
  metrics_->assigned_partitions.Set(static_cast<double>(assigned_.size()));
  metrics_->paused_partitions.Set(paused);
  metrics_->pending_bytes.Set(static_cast<double>(pending));
  metrics_->prepare_queue.Set(static_cast<double>(pool_->pending_records()));
  metrics_->producer_queue.Set(static_cast<double>(sink_->unacknowledged()));
}

void RunLoop::SamplePartition(PartitionId partition, const Assigned& a, EventTime wall) {
  const std::string p = std::to_string(partition.value());
  // The consumer's cached high watermark, refreshed by every fetch: no
  // request to the broker.
  int64_t low = 0, high = -1;
  const int64_t next = a.pipeline->next_offset().value();
  if (consumer_->get_watermark_offsets(kafka_.input_topic, partition.value(), &low, &high) ==
          RdKafka::ERR_NO_ERROR &&
      high >= 0 && next >= 0) {
    metrics_->consumer_lag.WithLabels({p}).Set(
        static_cast<double>(std::max<int64_t>(0, high - next)));
  }
  if (a.pipeline->shard() == nullptr) return;  // the re-keying stage keeps no state
  const store::ShardStats stats = a.pipeline->shard()->Stats();
  // Before its first event a shard has no watermark: no lag to speak of.
  if (ToMillis(stats.watermark) > 0) {
    metrics_->event_time_lag.WithLabels({p}).Set(
        std::chrono::duration<double>(wall - stats.watermark).count());
  }
  metrics_->bloom_fill.WithLabels({p}).Set(stats.bloom_fill_ratio);
  metrics_->bloom_fpr.WithLabels({p}).Set(stats.bloom_false_positive_rate);
  metrics_->store_entries.WithLabels({p, "url"}).Set(static_cast<double>(stats.url_entries));
  metrics_->store_entries.WithLabels({p, "exact"}).Set(static_cast<double>(stats.exact_entries));
  metrics_->store_entries.WithLabels({p, "near"}).Set(static_cast<double>(stats.near_entries));
  metrics_->disk_bytes.WithLabels({p}).Set(static_cast<double>(stats.disk_bytes));
  metrics_->memtable_bytes.WithLabels({p}).Set(static_cast<double>(stats.memtable_bytes));
  metrics_->pending_compaction_bytes.WithLabels({p}).Set(
      static_cast<double>(stats.pending_compaction_bytes));
  metrics_->memory_bytes.WithLabels({p, "bloom"}).Set(static_cast<double>(stats.bloom_memory_bytes));
  metrics_->memory_bytes.WithLabels({p, "simhash_index"})
      .Set(static_cast<double>(stats.near_index_memory_bytes));
  metrics_->pending_writes.WithLabels({p}).Set(static_cast<double>(stats.pending_writes));
  metrics_->restore_progress.WithLabels({p}).Set(1);  // opened from local disk: nothing to restore
}

}  // namespace pagesieve::run
