#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "kafka/consumer.h"
#include "kafka/kafka_options.h"
#include "pipeline/background_opener.h"
#include "pipeline/source.h"
#include "run/changelog_restorer.h"
#include "run/run_metrics.h"
#include "run/run_options.h"
#include "run/unowned_shards.h"

namespace pagesieve::run {

// How this member takes up and lets go of the input's partitions when the
// group rebalances (docs/daemon.md). A partition given to it is restored
// from the changelog first when its shard is behind (docs/changelog.md),
// then its shard opens on the opener's workers, and once it is open the
// partition's lane opens and reading starts where its state left off, or
// where --from says the first time. The rebalance callback itself only
// starts this work: the consumer goes on polling while shards restore and
// open (seconds per million entries), and Advance() takes each partition up
// (incremental assign) when its shard is ready and the brokers have said
// where it starts (a broker restarting can take a while to). A partition
// revoked is finished and committed before it is let go; one lost is
// dropped; one still restoring, opening or waiting for its start is let go
// at once.
//
// Called on the consuming thread, from within Consumer::Consume() for the
// rebalance events. Not thread-safe.
class Assignment {
 public:
  // `restorer` and `unowned` are null without a changelog (or without
  // state); `opener` is null without state: lanes then open at once.
  Assignment(const kafka::KafkaOptions& kafka, const RunOptions& run, kafka::Consumer& consumer,
             ChangelogRestorer* restorer, pipeline::BackgroundOpener* opener,
             UnownedShards* unowned, RunMetrics& metrics, const Clock& clock);

  void OnAssigned(const std::vector<PartitionId>& partitions, pipeline::Lanes& lanes);
  void OnRevoked(const std::vector<PartitionId>& partitions, pipeline::Lanes& lanes);
  void OnLost(const std::vector<PartitionId>& partitions, pipeline::Lanes& lanes);
  // Goes on with restores for a bounded time, starts the opens of the shards
  // that became ready for it, and takes up the partitions whose shard is
  // open. Never waits for an open.
  Status Advance(pipeline::Lanes& lanes);

  bool restoring() const { return restorer_ != nullptr && restorer_->busy(); }
  // Partitions given to this member and not taken up yet: restoring,
  // opening, or waiting for the open of an earlier assignment to end.
  bool pending() const;
  bool pending(PartitionId p) const;
  // What a rebalance event could not return: it ends the run.
  const Status& fatal() const { return fatal_; }

 private:
  // What the brokers say about where a partition may start.
  struct Answers {
    int64_t low = 0;
    int64_t high = 0;
    std::optional<Offset> from;       // --from, the first time this member takes it
    std::optional<Offset> committed;  // the group's, when `from` is not set
  };
  // Asks them, waiting out passing errors until `deadline`; Unavailable when
  // one outlasted it.
  StatusOr<Answers> Ask(PartitionId partition, Clock::SteadyTime deadline);
  // The concrete offset a partition starts from, and (exactly once) the
  // committed offset its records up to are decided for the state only.
  Offset StartOffset(const Answers& answers, const std::optional<Offset>& checkpointed,
                     std::optional<Offset>* replay_until) const;
  // Shards to open a lane with, by partition: null means the lane opens its
  // own (a stage without state, or without an opener).
  using Shards = std::map<PartitionId, std::unique_ptr<store::Shard>>;
  // A partition whose shard is ready (or that needs none) and whose start
  // the brokers have not told yet.
  struct Unpositioned {
    std::unique_ptr<store::Shard> shard;  // null: the lane opens its own
    Clock::SteadyTime deadline;           // past it, the stage stops
    bool told = false;                    // the wait was logged
  };

  // Restores the partition's shard first when it is behind the changelog;
  // else starts opening it, or without an opener adds it to `now`.
  Status Prepare(PartitionId partition, Shards* now);
  void BeginOpen(PartitionId partition, pipeline::BackgroundOpener::Prologue first = nullptr);
  // Begins what waited for a cancelled open of its partition to end.
  Status ResumeWaiting(Shards* now);
  // Opens the partition's lane; the position to assign it at.
  StatusOr<std::pair<PartitionId, Offset>> Open(PartitionId partition,
                                                std::unique_ptr<store::Shard> shard,
                                                const Answers& answers, pipeline::Lanes& lanes);
  // Adds `partitions` to those waiting for their start, asks the brokers
  // for a bounded time, and opens the lanes of those answered and takes
  // them up at the consumer (even none when `always_assign`: a rebalance's
  // assign completes it).
  Status TakeUp(Shards partitions, pipeline::Lanes& lanes, bool always_assign);
  // The partitions of a revocation the consumer was actually given: those
  // still restoring or opening never were. Stops their restores and opens.
  std::vector<PartitionId> StopTakingUp(const std::vector<PartitionId>& partitions);
  void UpdateReadiness();

  const kafka::KafkaOptions& kafka_;
  const RunOptions& run_;
  kafka::Consumer& consumer_;
  ChangelogRestorer* const restorer_;
  pipeline::BackgroundOpener* const opener_;
  UnownedShards* const unowned_;
  RunMetrics& metrics_;
  const Clock& clock_;
  std::set<PartitionId> started_once_;  // --from applies once per partition
  // Assigned again while the cancelled open of an earlier assignment still
  // holds the shard: prepared once that open has ended.
  std::set<PartitionId> waiting_;
  std::map<PartitionId, Unpositioned> unpositioned_;
  Status fatal_;
};

}  // namespace pagesieve::run
