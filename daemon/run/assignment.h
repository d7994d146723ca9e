#pragma once

#include <optional>
#include <set>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "kafka/consumer.h"
#include "kafka/kafka_options.h"
#include "pipeline/source.h"
#include "run/changelog_restorer.h"
#include "run/run_metrics.h"
#include "run/run_options.h"
#include "run/unowned_shards.h"

namespace pagesieve::run {

// How this member takes up and lets go of the input's partitions when the
// group rebalances (docs/daemon.md). A partition given to it is restored
// from the changelog first when its shard is behind (docs/changelog.md),
// then its lane opens and reading starts where its state left off, or where
// --from says the first time. A partition revoked is finished and committed
// before it is let go; one lost is dropped.
//
// Called on the consuming thread, from within Consumer::Consume() for the
// rebalance events. Not thread-safe.
class Assignment {
 public:
  // `restorer` and `unowned` are null without a changelog (or without state).
  Assignment(const kafka::KafkaOptions& kafka, const RunOptions& run, kafka::Consumer& consumer,
             ChangelogRestorer* restorer, UnownedShards* unowned, RunMetrics& metrics,
             const Clock& clock);

  void OnAssigned(const std::vector<PartitionId>& partitions, pipeline::Lanes& lanes);
  void OnRevoked(const std::vector<PartitionId>& partitions, pipeline::Lanes& lanes);
  void OnLost(const std::vector<PartitionId>& partitions, pipeline::Lanes& lanes);
  // Goes on with restores for a bounded time and takes up the partitions
  // whose restore finished.
  Status AdvanceRestores(pipeline::Lanes& lanes);

  bool restoring() const { return restorer_ != nullptr && restorer_->busy(); }
  bool restoring(PartitionId p) const { return restorer_ != nullptr && restorer_->restoring(p); }
  // What a rebalance event could not return: it ends the run.
  const Status& fatal() const { return fatal_; }

 private:
  // The concrete offset a partition starts from, and (exactly once) the
  // committed offset its records up to are decided for the state only.
  StatusOr<Offset> StartOffset(PartitionId partition, const std::optional<Offset>& checkpointed,
                               std::optional<Offset>* replay_until);
  // Opens the partition's lane; the position to assign it at.
  StatusOr<std::pair<PartitionId, Offset>> Open(PartitionId partition, pipeline::Lanes& lanes);
  // Opens the lanes of `partitions` and takes them up at the consumer.
  Status TakeUp(const std::vector<PartitionId>& partitions, pipeline::Lanes& lanes);
  // The partitions of a revocation the consumer was actually given: those
  // still restoring never were. Cancels their restores.
  std::vector<PartitionId> StopRestoring(const std::vector<PartitionId>& partitions);
  void UpdateReadiness();

  const kafka::KafkaOptions& kafka_;
  const RunOptions& run_;
  kafka::Consumer& consumer_;
  ChangelogRestorer* const restorer_;
  UnownedShards* const unowned_;
  RunMetrics& metrics_;
  const Clock& clock_;
  std::set<PartitionId> started_once_;  // --from applies once per partition
  Status fatal_;
};

}  // namespace pagesieve::run
