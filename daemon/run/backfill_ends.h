#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "common/clock.h"
#include "common/status.h"
#include "common/types.h"
#include "kafka/consumer.h"
#include "run/run_options.h"

namespace pagesieve::run {

// Where a backfill (--until) stops reading each partition of the input: the
// first offset not to process. The ends are taken once, at start: later
// records are the live run's. The stage that reads the repartition topic
// learns them only once the re-keying stage has published everything
// (docs/rekey.md). Not thread-safe.
class BackfillEnds {
 public:
  explicit BackfillEnds(EndPosition until) : until_(until) {}

  // A backfill (not a daemon that runs until stopped).
  bool enabled() const { return until_.kind != EndPosition::Kind::kForever; }
  bool known() const { return known_; }

  // Takes the ends of the consumer's topic now: its high watermarks, or the
  // first offsets at --until's time. A leader that moves (a broker
  // restarting) is waited for until `deadline`.
  Status Compute(kafka::Consumer& consumer, int32_t partitions, const Clock& clock,
                 Clock::SteadyTime deadline);

  std::optional<Offset> EndOf(PartitionId partition) const;
  // The partition's lane reached its end and is checkpointed.
  void Reached(PartitionId partition) { reached_.insert(partition); }
  bool reached(PartitionId partition) const { return reached_.count(partition) > 0; }
  // Another member of the group read the partition to its end: the group's
  // committed offset is there (KafkaSource::LearnEndsReachedElsewhere).
  void ReachedElsewhere(PartitionId partition) { elsewhere_.insert(partition); }
  // Partitions reached neither here nor elsewhere.
  std::vector<PartitionId> Unreached() const;
  // Every partition reached its end: the backfill is complete.
  bool Complete() const;

 private:
  const EndPosition until_;
  bool known_ = false;
  std::map<PartitionId, Offset> ends_;
  std::set<PartitionId> reached_, elsewhere_;
};

}  // namespace pagesieve::run
