#include "run/run_metrics.h"

#include "version.h"

namespace pagesieve::run {

using metrics::ExponentialBuckets;

namespace {

// Consumed -> decided: 0.5 ms .. 33 s.
std::vector<double> LatencyBuckets() { return ExponentialBuckets(0.0005, 2, 17); }
// One record's parse and fingerprint: 10 us .. 1.3 s.
std::vector<double> FingerprintBuckets() { return ExponentialBuckets(0.00001, 2, 18); }
// One store lookup: 1 us (Bloom says no) .. 1 s (a cold disk read).
std::vector<double> LookupBuckets() { return ExponentialBuckets(0.000001, 4, 11); }

}  // namespace

RunMetrics::RunMetrics(metrics::Registry& r, const std::string& prefix)
    : registry(r),
      records_consumed(r.AddCounter(prefix + "records_consumed_total",
                                    "Input records consumed and handed to their partition.")
                           .Get()),
      verdicts(r.AddCounter(prefix + "verdicts_total",
                            "Verdicts decided, by verdict (unique, duplicate, skipped) and "
                            "duplicate tier (url, exact, near; none otherwise).",
                            {"verdict", "tier"})),
      unique(verdicts.WithLabels({"unique", "none"})),
      duplicate_url(verdicts.WithLabels({"duplicate", "url"})),
      duplicate_exact(verdicts.WithLabels({"duplicate", "exact"})),
      duplicate_near(verdicts.WithLabels({"duplicate", "near"})),
      skipped(verdicts.WithLabels({"skipped", "none"})),
      dead_letters(r.AddCounter(prefix + "dead_letters_total",
                                "Input records sent to the dead-letter topic.")
                       .Get()),
      truncated(r.AddCounter(prefix + "truncated_records_total",
                             "Records whose body was cut at max_body_bytes.")
                    .Get()),
      rebalances(r.AddCounter(prefix + "rebalances_total",
                              "Consumer group rebalance events (assign, revoke, lost).",
                              {"event"})),
      delivery_errors(r.AddCounter(prefix + "producer_delivery_errors_total",
                                   "Output messages the broker did not acknowledge.")
                          .Get()),
      checkpoints(r.AddCounter(prefix + "checkpoints_total",
                               "Shard checkpoints taken (state and offset saved together).")
                      .Get()),
      transactions(r.AddCounter(prefix + "transactions_total",
                                "Exactly once: Kafka transactions, by how they ended "
                                "(committed: output and input offsets visible together; "
                                "aborted: decided again).",
                                {"result"})),
      transactions_committed(transactions.WithLabels({"committed"})),
      transactions_aborted(transactions.WithLabels({"aborted"})),
      changelog_records(r.AddCounter(prefix + "changelog_records_total",
                                     "State changes shipped to the changelog topic (entries, "
                                     "tombstones, checkpoint markers).")
                            .Get()),
      restored_records(r.AddCounter(prefix + "restored_records_total",
                                    "Changelog records applied to shards by restores.")
                           .Get()),
      restored_bytes(r.AddCounter(prefix + "restored_bytes_total",
                                  "Bytes of changelog records applied to shards by restores.")
                         .Get()),
      restore_stalls(r.AddCounter(prefix + "restore_stalls_total",
                                  "Rounds of restoring that read nothing while RocksDB stalled "
                                  "writers (its flushes behind the restore).")
                         .Get()),
      late_records(r.AddCounter(prefix + "routed_late_records_total",
                                "Routed dedup: records later than routing.max_lateness, "
                                "decided at their partition's floor (where they arrived).")
                       .Get()),
      routed_messages(r.AddCounter(prefix + "routed_messages_total",
                                   "Routed dedup: messages this stage sent on the internal "
                                   "topics, by kind.",
                                   {"kind"})),
      routed_message_bytes(r.AddCounter(prefix + "routed_message_bytes_total",
                                        "Routed dedup: bytes of those messages (their encoding, "
                                        "before Kafka's framing and compression), by kind.",
                                        {"kind"})),
      processing_latency(r.AddHistogram(prefix + "processing_latency_seconds",
                                        "From a record consumed to its verdict decided (and "
                                        "queued for the producer).",
                                        {}, LatencyBuckets())
                             .Get()),
      fingerprint_time(r.AddHistogram(prefix + "fingerprint_seconds",
                                      "Parsing and fingerprinting one record.", {},
                                      FingerprintBuckets())
                           .Get()),
      commit_time(r.AddHistogram(prefix + "commit_seconds",
                                 "Exactly once: one transaction's commit, from the moment no "
                                 "lane decides to the offsets and output committed.",
                                 {}, LatencyBuckets())
                      .Get()),
      lookup_time(r.AddHistogram(prefix + "store_lookup_seconds",
                                 "One lookup in a shard's store (url, exact, near).", {"store"},
                                 LookupBuckets())),
      url_lookup(lookup_time.WithLabels({"url"})),
      exact_lookup(lookup_time.WithLabels({"exact"})),
      near_lookup(lookup_time.WithLabels({"near"})),
      consumer_lag(r.AddGauge(prefix + "consumer_lag_records",
                              "Records in the partition not yet decided (high watermark minus "
                              "next offset).",
                              {"partition"})),
      event_time_lag(r.AddGauge(prefix + "event_time_lag_seconds",
                                "Wall clock minus the partition's watermark (latest event time "
                                "seen).",
                                {"partition"})),
      bloom_fill(r.AddGauge(prefix + "bloom_fill_ratio",
                            "Fraction of the URL Bloom filter's live bits that are set.",
                            {"partition"})),
      bloom_fpr(r.AddGauge(prefix + "bloom_false_positive_rate",
                           "The URL Bloom filter's false-positive rate estimated from its fill.",
                           {"partition"})),
      store_entries(r.AddGauge(prefix + "store_entries",
                               "Entries per store (RocksDB's estimate, expired ones included "
                               "until compaction).",
                               {"partition", "store"})),
      disk_bytes(
          r.AddGauge(prefix + "store_disk_bytes", "Live SST files of the shard.", {"partition"})),
      memtable_bytes(r.AddGauge(prefix + "store_memtable_bytes",
                                "Memtables of the shard (from the shared write buffer).",
                                {"partition"})),
      pending_compaction_bytes(r.AddGauge(
          prefix + "store_pending_compaction_bytes",
          "RocksDB's estimate of the bytes compaction still has to rewrite in the shard.",
          {"partition"})),
      memory_bytes(r.AddGauge(prefix + "store_memory_bytes",
                              "Heap bytes of the shard's in-memory structures: the URL filter, "
                              "the SimHash index and the LSH index (which grow with the live "
                              "near entries).",
                              {"partition", "structure"})),
      index_rows(r.AddGauge(prefix + "store_index_rows",
                            "Rows of the near store's in-memory indexes: entries times SimHash "
                            "tables or LSH bands, or a routed near owner's share of them.",
                            {"partition", "index"})),
      pending_writes(r.AddGauge(prefix + "store_pending_writes",
                                "Keys written since the shard's last checkpoint.", {"partition"})),
      restore_progress(r.AddGauge(prefix + "restore_progress_ratio",
                                  "Share of the shard's changelog records restored before the "
                                  "partition is processed (1: serving).",
                                  {"partition"})),
      assigned_partitions(
          r.AddGauge(prefix + "assigned_partitions", "Input partitions this process owns.").Get()),
      paused_partitions(
          r.AddGauge(prefix + "paused_partitions", "Partitions paused by backpressure.").Get()),
      pending_bytes(r.AddGauge(prefix + "pending_bytes",
                               "Input bytes consumed and not yet decided (run.max_pending_bytes).")
                        .Get()),
      prepare_queue(r.AddGauge(prefix + "fingerprint_queue_records",
                               "Records waiting for or in fingerprinting.")
                        .Get()),
      producer_queue(r.AddGauge(prefix + "producer_queue_messages",
                                "Output messages produced and not yet acknowledged.")
                         .Get()),
      ready_gauge(r.AddGauge(prefix + "ready", "1 when /readyz answers 200.").Get()) {
  if (prefix != kRunMetricsPrefix) return;  // once per process
  r.AddGauge(prefix + "build_info", "Always 1; the version as a label.", {"version"})
      .WithLabels({std::string(kVersionString)})
      .Set(1);
}

void RunMetrics::AddCounts(const engine::VerdictCounts& now) {
  const auto add = [](metrics::Counter& c, int64_t now_total, int64_t& added) {
    if (now_total > added) c.Increment(static_cast<double>(now_total - added));
    added = now_total;
  };
  if (now.records == added_.records) return;
  added_.records = now.records;
  add(unique, now.unique, added_.unique);
  add(duplicate_url, now.duplicate_url, added_.duplicate_url);
  add(duplicate_exact, now.duplicate_exact, added_.duplicate_exact);
  add(duplicate_near, now.duplicate_near, added_.duplicate_near);
  add(skipped, now.skipped, added_.skipped);
  add(dead_letters, now.dead_letters, added_.dead_letters);
  add(truncated, now.truncated, added_.truncated);
}

void RunMetrics::RemovePartition(PartitionId partition) {
  const std::string p = std::to_string(partition.value());
  for (metrics::GaugeFamily* f :
       {&consumer_lag, &event_time_lag, &bloom_fill, &bloom_fpr, &disk_bytes, &memtable_bytes,
        &pending_compaction_bytes, &pending_writes, &restore_progress}) {
    f->Remove({p});
  }
  for (const char* store : {"url", "exact", "near"}) store_entries.Remove({p, store});
  for (const char* structure : {"bloom", "simhash_index", "lsh_index"}) {
    memory_bytes.Remove({p, structure});
  }
  for (const char* index : {"simhash", "lsh"}) index_rows.Remove({p, index});
}

void RunMetrics::SetReady(bool r) {
  ready.store(r);
  ready_gauge.Set(r ? 1 : 0);
}

}  // namespace pagesieve::run
