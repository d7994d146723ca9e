#pragma once

#include <map>
#include <optional>

#include "common/clock.h"
#include "engine/engine_options.h"
#include "kafka/kafka_options.h"
#include "metrics/metric.h"
#include "pipeline/output_format.h"
#include "pipeline/stage.h"
#include "routed/routed_output.h"
#include "routing/ownership.h"
#include "routing/source_floor.h"

namespace pagesieve::routed {

// The first stage of routed dedup (docs/global-routing.md, "The stages"):
// the pool fingerprints each event, and each lane stamps it with its place
// in the order (routing::SourceFloor: event time, else its partition's
// floor when it is late) and sends it to the URL owner of its canonical
// URL. Once per transaction, when its floor has risen, it promises every
// URL owner its partition's floor; at a backfill's end, the end.
//
// Its state is its partitions' floors, and a floor is the partition's
// highest event time less routing.max_lateness: so the lane's shard keeps
// it as its watermark, checkpointed with the input offset and shipped in
// the changelog, and a replay stamps every record as the first time did.
// A live partition with nothing to read lifts its floor after
// routing.idle_timeout of wall time (MaybeLift), the one place a verdict
// may depend on the wall clock: a record that comes later below the lifted
// floor is late.
// A record that is not accepted (its status) gets its "skipped" verdict
// here: it touches no state.
class RouteStage final : public pipeline::Stage {
 public:
  // Everything passed by reference must outlive the stage. `late` (may be
  // null) counts records later than routing.max_lateness; `sent` what the
  // stage sends.
  RouteStage(const engine::EngineOptions& options, const Clock& clock,
             const kafka::KafkaOptions& kafka, const pipeline::OutputFormat& format,
             routing::Ownership url_owners, metrics::Counter* late, SentCounters sent)
      : options_(options),
        clock_(clock),
        kafka_(kafka),
        format_(format),
        url_owners_(url_owners),
        late_(late),
        sent_(sent) {}

  engine::PreparePool::PrepareFnFactory PrepareFactory() const override;
  bool stateful() const override { return true; }
  Status Process(engine::PreparedRecord record, const pipeline::SourceRecord& input,
                 store::TierStores* stores, engine::VerdictCounts& counts,
                 std::vector<pipeline::OutputMessage>* out) override;
  pipeline::OutputMessage DeadLetter(const pipeline::SourceRecord& input, const Status& error,
                                     engine::VerdictCounts& counts) override;
  Status LaneOpened(PartitionId partition, store::Shard* shard) override;
  void LaneClosed(PartitionId partition) override { lanes_.erase(partition); }
  Status AfterProcessing(PartitionId partition, const LaneRound& round,
                         std::vector<pipeline::OutputMessage>* out) override;
  void BeforeCommit(PartitionId partition, std::vector<pipeline::OutputMessage>* out) override;
  bool HoldsOutput(PartitionId partition) const override;

 private:
  struct Lane {
    routing::SourceFloor floor;
    std::optional<routing::OrderKey> promised;  // last sent to the URL owners
    store::Shard* shard = nullptr;              // keeps the floor as its watermark
    Clock::SteadyTime last_record{};            // or the last round with records waiting
  };
  // Lifts an idle live partition's floor (routing.idle_timeout).
  void MaybeLift(Lane& lane, const LaneRound& round);

  const engine::EngineOptions& options_;
  const Clock& clock_;
  const kafka::KafkaOptions& kafka_;
  const pipeline::OutputFormat& format_;
  const routing::Ownership url_owners_;
  metrics::Counter* const late_;
  const SentCounters sent_;
  std::map<PartitionId, Lane> lanes_;
};

}  // namespace pagesieve::routed
