#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

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

  // Queues the changelog records of a checkpoint of `shard` at `next_offset`.
  // When the changelog never received the shard (seeding,
  // Shard::ships_snapshot), its records are the whole shard, once: they are
  // read in pieces as Ship() sends them, never all in memory, and logged
  // with their size when all are sent.
  Status Begin(store::Shard& shard, Offset next_offset);
  // Sends what is queued, reading the next pieces of a seed from `shard`
  // (at most kSeedKeysPerShip stored keys a call, so that the partition's
  // thread goes back to polling between them); true once every record of
  // the checkpoint is acknowledged, or, `in_transaction`, once every one is
  // sent: the transaction's commit waits for their acknowledgements
  // (Sink::CommitTransaction). Then the checkpoint may be made: Finish()
  // first. `shard` must not change while it ships.
  StatusOr<bool> Ship(Sink& sink, store::Shard& shard, bool in_transaction = false);

  // Stored keys a seed reads per Ship() call: a few tens of milliseconds.
  static constexpr size_t kSeedKeysPerShip = 50'000;
  // Tells the shard where the changelog stands after this checkpoint's
  // records (saved with the checkpoint); returns the input offset to
  // checkpoint at.
  // `transactional`: the records were committed in a transaction, whose
  // marker follows them.
  Offset Finish(store::Shard& shard, bool transactional = false);

  const DeliveryCounter& deliveries() const { return *counter_; }

 private:
  // Queues `shard`'s records of the checkpoint after its snapshot.
  Status QueueChanges(store::Shard& shard);
  void Queue(std::string_view key, std::optional<std::string_view> value);
  void LogSeed() const;

  const std::string topic_;
  const PartitionId partition_;
  metrics::Counter* const shipped_;
  std::optional<Offset> shipping_;
  std::deque<OutputMessage> unsent_;
  // A seed being read: where its snapshot stands, and what it has queued.
  std::optional<store::SnapshotCursor> seed_;
  size_t seed_records_ = 0;
  size_t seed_bytes_ = 0;
  std::shared_ptr<DeliveryCounter> counter_ = std::make_shared<DeliveryCounter>();
};

}  // namespace pagesieve::pipeline
