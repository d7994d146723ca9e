#pragma once

#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "pipeline/source.h"

namespace pagesieve::pipeline::testing {

// A Lanes that records what a source, or a member taking partitions up,
// does to it: where each lane was told to start, and its records.
class RecordingLanes final : public Lanes {
 public:
  StatusOr<std::optional<Offset>> Open(PartitionId p) override {
    open.insert(p);
    return checkpointed;
  }
  StatusOr<std::optional<Offset>> OpenWith(PartitionId p, std::unique_ptr<store::Shard>) override {
    return Open(p);
  }
  void StartAt(PartitionId, Offset offset) override { start = offset; }
  void ReplayUntil(PartitionId, Offset offset) override { replay_until = offset; }
  void SkipTo(PartitionId, Offset) override {}
  bool Add(PartitionId, SourceRecord record) override {
    records.push_back(std::move(record));
    return true;
  }
  bool Revoke(PartitionId, Clock::SteadyTime) override { return true; }
  void Drop(PartitionId) override {}
  bool IsOpen(PartitionId p) const override { return open.count(p) > 0; }

  std::optional<Offset> checkpointed;  // what every lane's state says
  std::set<PartitionId> open;
  std::optional<Offset> start;
  std::optional<Offset> replay_until;
  std::vector<SourceRecord> records;
};

}  // namespace pagesieve::pipeline::testing
