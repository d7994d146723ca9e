#pragma once

#include <atomic>
#include <string>

#include "common/types.h"
#include "engine/verdict_counts.h"
#include "metrics/registry.h"

namespace pagesieve::run {

inline constexpr char kRunMetricsPrefix[] = "pagesieve_";
inline constexpr char kRekeyMetricsPrefix[] = "pagesieve_rekey_";

// Every metric of `pagesieve run` (docs/metrics.md lists them), registered
// in one registry, with the children hot paths touch looked up once.
//
// Counters and histograms are updated where things happen (the loop's thread,
// the fingerprinting workers); per-partition gauges are written by the loop's
// periodic sample. `ready` is the loop's answer to /readyz. Thread-safe like
// the metrics it holds.
//
// Every name starts with `prefix`: the re-keying stage of a two-stage run
// (docs/rekey.md) registers its own set, kRekeyMetricsPrefix, in the same
// registry, so /metrics shows both stages.
struct RunMetrics {
  explicit RunMetrics(metrics::Registry& registry, const std::string& prefix = kRunMetricsPrefix);

  // Adds to the verdict, dead-letter and truncation counters what `now`
  // counts beyond the totals last added.
  void AddCounts(const engine::VerdictCounts& now);
  // Drops every per-partition series of `partition` (revoked or lost).
  void RemovePartition(PartitionId partition);
  void SetReady(bool ready);

  metrics::Registry& registry;

  metrics::Counter& records_consumed;
  metrics::CounterFamily& verdicts;  // verdict, tier
  metrics::Counter& unique;
  metrics::Counter& duplicate_url;
  metrics::Counter& duplicate_exact;
  metrics::Counter& duplicate_near;
  metrics::Counter& skipped;
  metrics::Counter& dead_letters;
  metrics::Counter& truncated;
  metrics::CounterFamily& rebalances;  // event: assign, revoke, lost
  metrics::Counter& delivery_errors;
  metrics::Counter& checkpoints;
  // Exactly once: transactions committed and aborted.
  metrics::CounterFamily& transactions;
  metrics::Counter& transactions_committed;
  metrics::Counter& transactions_aborted;
  metrics::Counter& changelog_records;
  metrics::Counter& restored_records;
  metrics::Counter& restored_bytes;
  // Rounds of restoring that read nothing because RocksDB stalled writers.
  metrics::Counter& restore_stalls;
  // Routed dedup's route stage (docs/global-routing.md): records later than
  // routing.max_lateness, decided where they arrived.
  metrics::Counter& late_records;
  // What a routed stage sends on the internal topics, by kind (record,
  // progress, probe, answer, outcome, touch).
  metrics::CounterFamily& routed_messages;
  metrics::CounterFamily& routed_message_bytes;

  metrics::Histogram& processing_latency;
  metrics::Histogram& fingerprint_time;
  metrics::Histogram& commit_time;
  metrics::HistogramFamily& lookup_time;  // store
  metrics::Histogram& url_lookup;
  metrics::Histogram& exact_lookup;
  metrics::Histogram& near_lookup;

  // Sampled by the loop.
  metrics::GaugeFamily& consumer_lag;              // partition
  metrics::GaugeFamily& event_time_lag;            // partition
  metrics::GaugeFamily& bloom_fill;                // partition
  metrics::GaugeFamily& bloom_fpr;                 // partition
  metrics::GaugeFamily& store_entries;             // partition, store
  metrics::GaugeFamily& disk_bytes;                // partition
  metrics::GaugeFamily& memtable_bytes;            // partition
  metrics::GaugeFamily& pending_compaction_bytes;  // partition
  metrics::GaugeFamily& memory_bytes;              // partition, structure
  metrics::GaugeFamily& index_rows;                // partition, index
  metrics::GaugeFamily& pending_writes;            // partition
  metrics::GaugeFamily& restore_progress;          // partition
  metrics::Gauge& assigned_partitions;
  metrics::Gauge& paused_partitions;
  metrics::Gauge& pending_bytes;
  metrics::Gauge& prepare_queue;
  metrics::Gauge& producer_queue;
  metrics::Gauge& ready_gauge;

  std::atomic<bool> ready{false};

 private:
  engine::VerdictCounts added_;  // loop thread only
};

}  // namespace pagesieve::run
