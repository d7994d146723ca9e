#pragma once

#include <memory>

#include "common/status_or.h"
#include "engine/decider.h"
#include "routing/message_codec.h"
#include "routing/messages.h"
#include "routing/near_plan.h"
#include "routing/ownership.h"
#include "store/shard.h"

namespace pagesieve::routed {

// Which owners a stage of routed dedup runs (docs/global-routing.md).
enum class OwnerKind { kUrl, kContent, kNear };

// One partition's owner of any kind, as its Kafka stage drives it: a
// message in, one step, the step's output. Not thread-safe.
class PartitionOwner {
 public:
  virtual ~PartitionOwner() = default;
  // Hands over one message read from the partition and steps. An error is
  // the store failing, or a message this kind of owner never receives.
  virtual Status Take(routing::Message message, routing::Outbox* out) = 0;
  // What the shard must not expire yet (store::Shard::HoldExpiry).
  virtual EventTime ExpiryHold() const = 0;
  // Every source ended and nothing is in flight (a backfill's end).
  virtual bool Finished() const = 0;
};

// What every owner of a stage shares: the rules, the placement of the keys
// it sends on, and who feeds it.
struct OwnerContext {
  OwnerKind kind = OwnerKind::kUrl;
  const engine::Decider* decider = nullptr;
  const routing::NearPlan* plan = nullptr;
  routing::Ownership next_owners = *routing::Ownership::Create(1);  // of the stage it sends to
  std::string topic;                  // the stage's own topic: its progress comes from there
  std::vector<routing::SourceId> sources;  // every partition that promises it progress
};

// The owner of `partition` on `shard` (which must outlive it), with the
// work the shard holds taken back (Restore). Corruption when the shard
// holds what this kind of owner did not write.
StatusOr<std::unique_ptr<PartitionOwner>> OpenPartitionOwner(const OwnerContext& context,
                                                             PartitionId partition,
                                                             store::Shard& shard);

}  // namespace pagesieve::routed
