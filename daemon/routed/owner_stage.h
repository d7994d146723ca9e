#pragma once

#include <map>
#include <memory>
#include <optional>

#include "engine/decider.h"
#include "engine/engine_options.h"
#include "kafka/kafka_options.h"
#include "pipeline/output_format.h"
#include "pipeline/stage.h"
#include "routed/partition_owner.h"
#include "routed/routed_output.h"
#include "routing/near_plan.h"

namespace pagesieve::routed {

// A stage of owners of routed dedup on Kafka (docs/global-routing.md, "How
// the stages run on Kafka"): each lane is one partition of the stage's
// internal topic and runs that partition's owner (routing/url_owner.h and
// the others) on the lane's shard. Every message read goes to the owner,
// which steps; what it sends goes to the partitions that own it, its
// verdicts to the output topics. Its promises to the next stage go once per
// transaction, the latest, after the messages they cover.
//
// The owner's unfinished work lives in the shard (its held messages), so
// the lane's checkpoint, changelog and transaction carry it: a partition
// that moves, or a transaction that is rolled back, reopens the owner as
// its last checkpoint left it (LaneOpened).
class OwnerStage final : public pipeline::Stage {
 public:
  // Everything passed by reference must outlive the stage. `context` names
  // the owners' kind, their sources and where they send; its decider and
  // plan are the stage's own.
  OwnerStage(const engine::EngineOptions& options, const kafka::KafkaOptions& kafka,
             const pipeline::OutputFormat& format, OwnerContext context, routing::NearPlan plan,
             SentCounters sent)
      : kafka_(kafka),
        format_(format),
        sent_(sent),
        decider_(InOrder(options.decider)),
        plan_(std::move(plan)),
        context_(std::move(context)) {
    context_.decider = &decider_;
    context_.plan = &plan_;
  }

  engine::PreparePool::PrepareFnFactory PrepareFactory() const override;
  bool stateful() const override { return true; }
  Status Process(engine::PreparedRecord record, const pipeline::SourceRecord& input,
                 store::TierStores* stores, engine::VerdictCounts& counts,
                 std::vector<pipeline::OutputMessage>* out) override;
  pipeline::OutputMessage DeadLetter(const pipeline::SourceRecord& input, const Status& error,
                                     engine::VerdictCounts& counts) override;
  Status LaneOpened(PartitionId partition, store::Shard* shard) override;
  void LaneClosed(PartitionId partition) override { lanes_.erase(partition); }
  void BeforeCommit(PartitionId partition, std::vector<pipeline::OutputMessage>* out) override;
  bool HoldsOutput(PartitionId partition) const override;
  void BeforeCheckpoint(PartitionId partition, store::Shard& shard) override;

  // The lane's owner has finished: every source ended, nothing in flight.
  bool Finished(PartitionId partition) const;

 private:
  struct Lane {
    std::unique_ptr<PartitionOwner> owner;
    std::optional<routing::Progress> unsent_progress;  // the latest, sent at the next commit
  };
  // The rules as routed dedup applies them: in event-time order, where a
  // later offset of an input partition may come first, so lookups do not
  // ignore entries of later offsets (a replay ahead of its input cannot
  // happen to an owner: its state and input offset commit together).
  static engine::DeciderOptions InOrder(engine::DeciderOptions options) {
    options.ignore_later_offsets = false;
    return options;
  }
  // Where this stage's promises go: none for the near owners.
  const std::string* ProgressTopic() const;

  const kafka::KafkaOptions& kafka_;
  const pipeline::OutputFormat& format_;
  const SentCounters sent_;
  const engine::Decider decider_;
  const routing::NearPlan plan_;
  OwnerContext context_;
  std::map<PartitionId, Lane> lanes_;
};

}  // namespace pagesieve::routed
