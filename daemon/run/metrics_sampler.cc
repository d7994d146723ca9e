#include "run/metrics_sampler.h"

namespace pagesieve::run {

void MetricsSampler::Maybe(const pipeline::Pipeline& pipeline, kafka::Consumer& consumer,
                           int64_t producer_queue, bool force) {
  const Clock::SteadyTime now = clock_.SteadyNow();
  if (!force && now - last_ < interval_) return;
  last_ = now;
  // Lag is the wall clock against the watermark: the one place the two meet.
  const EventTime wall = EventTime::FromWallClock(clock_.Now());
  size_t pending = 0;
  int paused = 0;
  std::set<PartitionId> sampled;
  const std::vector<pipeline::Pipeline::LaneInfo> lanes = pipeline.lanes();
  for (const pipeline::Pipeline::LaneInfo& lane : lanes) {
    SampleLane(lane, consumer, wall);
    pending += lane.pending_bytes;
    paused += lane.paused ? 1 : 0;
    sampled.insert(lane.partition);
  }
  // Partitions revoked, lost or finished since: their series go away.
  for (PartitionId p : sampled_) {
    if (!sampled.count(p)) metrics_.RemovePartition(p);
  }
  sampled_ = std::move(sampled);
  metrics_.assigned_partitions.Set(static_cast<double>(lanes.size()));
  metrics_.paused_partitions.Set(paused);
  metrics_.pending_bytes.Set(static_cast<double>(pending));
  metrics_.prepare_queue.Set(static_cast<double>(pipeline.prepare_queue()));
  metrics_.producer_queue.Set(static_cast<double>(producer_queue));
}

void MetricsSampler::SampleLane(const pipeline::Pipeline::LaneInfo& lane, kafka::Consumer& consumer,
                                EventTime wall) {
  const std::string p = std::to_string(lane.partition.value());
  // The consumer's cached high watermark, refreshed by every fetch: no
  // request to the broker.
  const int64_t next = lane.next_offset.value();
  if (auto marks = consumer.CachedWatermarks(lane.partition); marks && next >= 0) {
    metrics_.consumer_lag.WithLabels({p}).Set(
        static_cast<double>(std::max<int64_t>(0, marks->second - next)));
  }
  if (lane.shard == nullptr) return;  // the re-keying stage keeps no state
  const store::ShardStats stats = lane.shard->Stats();
  // Before its first event a shard has no watermark: no lag to speak of.
  if (ToMillis(stats.watermark) > 0) {
    metrics_.event_time_lag.WithLabels({p}).Set(
        std::chrono::duration<double>(wall - stats.watermark).count());
  }
  metrics_.bloom_fill.WithLabels({p}).Set(stats.bloom_fill_ratio);
  metrics_.bloom_fpr.WithLabels({p}).Set(stats.bloom_false_positive_rate);
  metrics_.store_entries.WithLabels({p, "url"}).Set(static_cast<double>(stats.url_entries));
  metrics_.store_entries.WithLabels({p, "exact"}).Set(static_cast<double>(stats.exact_entries));
  metrics_.store_entries.WithLabels({p, "near"}).Set(static_cast<double>(stats.near_entries));
  metrics_.disk_bytes.WithLabels({p}).Set(static_cast<double>(stats.disk_bytes));
  metrics_.memtable_bytes.WithLabels({p}).Set(static_cast<double>(stats.memtable_bytes));
  metrics_.pending_compaction_bytes.WithLabels({p}).Set(
      static_cast<double>(stats.pending_compaction_bytes));
  metrics_.memory_bytes.WithLabels({p, "bloom"}).Set(static_cast<double>(stats.bloom_memory_bytes));
  metrics_.memory_bytes.WithLabels({p, "simhash_index"})
      .Set(static_cast<double>(stats.near_index_memory_bytes));
  metrics_.memory_bytes.WithLabels({p, "lsh_index"})
      .Set(static_cast<double>(stats.lsh_index_memory_bytes));
  metrics_.index_rows.WithLabels({p, "simhash"}).Set(static_cast<double>(stats.near_index_rows));
  metrics_.index_rows.WithLabels({p, "lsh"}).Set(static_cast<double>(stats.lsh_index_rows));
  metrics_.pending_writes.WithLabels({p}).Set(static_cast<double>(stats.pending_writes));
  metrics_.restore_progress.WithLabels({p}).Set(1);  // opened from local disk: nothing to restore
}

}  // namespace pagesieve::run
