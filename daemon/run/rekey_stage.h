#pragma once

#include <string>

#include "engine/engine_options.h"
#include "kafka/kafka_options.h"
#include "pipeline/stage.h"

namespace pagesieve::run {

// The re-keying stage of pagesieve run (docs/rekey.md): the pool prepares
// each event as for deciding, and each lane republishes the prepared record
// to the repartition topic, keyed by scope, instead of deciding it. It keeps
// no state; its lanes' checkpoints are only the offsets to commit.
class RekeyStage final : public pipeline::Stage {
 public:
  // `options`, `clock` and `kafka` must outlive the stage.
  RekeyStage(const engine::EngineOptions& options, const Clock& clock,
             const kafka::KafkaOptions& kafka)
      : options_(options), clock_(clock), kafka_(kafka) {}

  engine::PreparePool::PrepareFnFactory PrepareFactory() const override;
  bool stateful() const override { return false; }
  Status Process(engine::PreparedRecord record, const pipeline::SourceRecord& input,
                 store::TierStores* stores, engine::VerdictCounts& counts,
                 std::vector<pipeline::OutputMessage>* out) override;
  pipeline::OutputMessage DeadLetter(const pipeline::SourceRecord& input, const Status& error,
                                     engine::VerdictCounts& counts) override;

 private:
  const engine::EngineOptions& options_;
  const Clock& clock_;
  const kafka::KafkaOptions& kafka_;
};

}  // namespace pagesieve::run
