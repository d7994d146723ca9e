#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "common/status_or.h"
#include "common/types.h"
#include "metrics/metric.h"
#include "pipeline/output_message.h"
#include "pipeline/sink.h"
#include "store/shard.h"

namespace pagesieve::pipeline {

// Ships one lane's checkpoints to the changelog topic (docs/changelog.md):
// every state change of a checkpoint is sent and acknowledged before the
// checkpoint is made locally, and the checkpoint records how far the
// changelog covers it. Whoever restores the shard elsewhere then never finds
// local state ahead of the changelog.
//
// Not thread-safe: the lane's thread only.
class ChangelogShipper {
 public:
  // Changelog records of input partition `partition` go to the changelog
  // partition of the same number. `shipped` (may be null) counts them.
  ChangelogShipper(std::string topic, PartitionId partition, metrics::Counter* shipped)
      : topic_(std::move(topic)), partition_(partition), shipped_(shipped) {}

  // A checkpoint at `next_offset` is being shipped.
  std::optional<Offset> shipping() const { return shipping_; }

  // Queues the changelog records of a checkpoint of `shard` at `next_offset`:
  // the whole shard, once, when the changelog never received it (seeding,
  // Shard::ships_snapshot), which is logged with its size.
  Status Begin(store::Shard& shard, Offset next_offset);
  // Sends what is queued; true once every record of the checkpoint is
  // acknowledged. Then the checkpoint may be made: Finish() first.
  StatusOr<bool> Ship(Sink& sink);
  // Tells the shard where the changelog stands after this checkpoint's
  // records (saved with the checkpoint); returns the input offset to
  // checkpoint at.
  // `transactional`: the records were committed in a transaction, whose
  // marker follows them.
  Offset Finish(store::Shard& shard, bool transactional = false);

  const DeliveryCounter& deliveries() const { return *counter_; }

 private:
  void LogSeed() const;

  const std::string topic_;
  const PartitionId partition_;
  metrics::Counter* const shipped_;
  std::optional<Offset> shipping_;
  std::deque<OutputMessage> unsent_;
  std::shared_ptr<DeliveryCounter> counter_ = std::make_shared<DeliveryCounter>();
};

}  // namespace pagesieve::pipeline
