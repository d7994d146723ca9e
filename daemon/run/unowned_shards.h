#pragma once

#include <functional>
#include <map>
#include <string>

#include "common/clock.h"
#include "common/status.h"
#include "common/types.h"
#include "store/state_env.h"

namespace pagesieve::run {

// Shards on this machine's disk whose partitions this instance does not own:
// kept for `grace` in case the partition comes back (a rolling restart),
// then deleted (changelog.revoked_shard_grace, docs/changelog.md). Only with
// a changelog: without one a shard is the only copy of its state. Not
// thread-safe.
class UnownedShards {
 public:
  UnownedShards(store::StateEnv& state, std::string input_topic, Duration grace, const Clock& clock)
      : state_(state), input_topic_(std::move(input_topic)), grace_(grace), clock_(clock) {}

  // Notes the shards on disk at start: not assigned yet.
  void NoteExisting();
  void Owned(PartitionId partition) { since_.erase(partition); }
  void NotOwned(PartitionId partition) { since_[partition] = clock_.SteadyNow(); }
  // Every few seconds: deletes the shards not owned for the grace period.
  // `owned` tells whether the partition is this instance's again.
  void RemoveExpired(const std::function<bool(PartitionId)>& owned);

 private:
  store::StateEnv& state_;
  const std::string input_topic_;
  const Duration grace_;
  const Clock& clock_;
  std::map<PartitionId, Clock::SteadyTime> since_;  // unowned since
  Clock::SteadyTime last_sweep_{};
};

}  // namespace pagesieve::run
