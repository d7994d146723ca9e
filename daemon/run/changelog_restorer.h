#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "kafka/consumer.h"
#include "kafka/kafka_options.h"
#include "run/changelog_probe.h"
#include "run/run_metrics.h"
#include "store/shard_options.h"
#include "store/shard_restore.h"
#include "store/state_env.h"

namespace pagesieve::run {

// Brings the shards of newly assigned partitions up to date from the
// changelog topic before their input is processed (docs/changelog.md).
//
// Begin() decides per partition: a local shard whose changelog position is
// at the changelog's end is current and used as is; one that is behind
// catches up from its position. Local state the changelog has not received
// (no position: kept with the changelog off; or a position the changelog
// does not reach: recreated, or cut) is kept, and seeds the changelog with
// its next checkpoint, when the changelog is empty or its latest checkpoint
// is behind the local one (read from its tail first, ChangelogProbe); else it
// is emptied and restored from the start.
// Advance() then reads and applies records for a bounded time, so the run
// loop keeps polling its consumer meanwhile; a partition is done when its
// records up to the end seen at Begin() are applied and durable.
//
// Owned by the run loop's thread; not thread-safe.
class ChangelogRestorer {
 public:
  ChangelogRestorer(const kafka::KafkaOptions& kafka, store::StateEnv& state,
                    const store::ShardOptions& shard_options, const Clock& clock,
                    RunMetrics& metrics);
  ~ChangelogRestorer();

  Status Init();

  // True when the partition's shard must be restored first: Advance() will
  // report it done. False when its local shard is current.
  StatusOr<bool> Begin(PartitionId partition);
  // A partition whose records are all applied.
  struct Restored {
    PartitionId partition;
    // Makes them durable and closes the shard: a flush and a sync, seconds
    // for a large shard, so it is given to a thread that does not poll the
    // group (BackgroundOpener's prologue). Runs once, on any thread; empty
    // when nothing is left to do (the local state was kept).
    std::function<Status()> finish;
  };
  // Reads for about `budget`; returns the partitions whose records are all
  // applied.
  StatusOr<std::vector<Restored>> Advance(Duration budget);
  // Stops restoring a partition that was revoked; what was applied stays,
  // without progress, so a later restore starts where this one did.
  void Cancel(PartitionId partition);

  bool busy() const { return !jobs_.empty(); }
  bool restoring(PartitionId partition) const { return jobs_.count(partition) > 0; }

 private:
  struct Job {
    std::unique_ptr<store::ShardRestore> restore;
    Offset low{};           // the changelog partition's first offset
    Offset start{}, end{};  // changelog offsets [start, end) to read
    Offset next{};          // the next offset expected
    // While set, the tail is read to decide between the local state and
    // the changelog; nothing is applied.
    std::optional<ChangelogProbe> probe;
    Clock::SteadyTime started_at{}, last_log{};
  };

  // Restores the partition's changelog records [start, end) into `restore`.
  StatusOr<bool> StartRestore(PartitionId partition, std::unique_ptr<store::ShardRestore> restore,
                              Offset start, Offset end);
  void LogStart(PartitionId partition, const Job& job) const;
  // Keeps the local state over the changelog (`changelog_latest`: its latest
  // checkpoint's input offset, if any), to be shipped whole.
  Status KeepLocal(PartitionId partition, store::ShardRestore& restore,
                   std::optional<Offset> changelog_latest);
  // A record of the tail being probed.
  Status AdvanceProbe(PartitionId partition, const kafka::Consumed& m,
                      std::vector<Restored>* done);
  // The probe's window is read: reads further back, or decides.
  Status EndProbeWindow(PartitionId partition, std::vector<Restored>* done);

  // Offers every batch RocksDB turned away again; whether one still waits.
  StatusOr<bool> Unstall();
  // Points the restore consumer at every job's next offset.
  Status Reassign();
  // Drops the partition's job and adds it to `done`, with what makes its
  // restore durable.
  Status Finish(PartitionId partition, std::vector<Restored>* done);
  void LogProgress(PartitionId partition, Job& job);

  const kafka::KafkaOptions& kafka_;
  store::StateEnv& state_;
  const store::ShardOptions& shard_options_;
  const Clock& clock_;
  RunMetrics& metrics_;
  std::unique_ptr<kafka::Consumer> consumer_;  // reads the changelog topic
  std::map<PartitionId, Job> jobs_;
};

}  // namespace pagesieve::run
