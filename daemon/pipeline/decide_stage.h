#pragma once

#include "engine/decider.h"
#include "engine/engine_options.h"
#include "pipeline/output_format.h"
#include "pipeline/stage.h"

namespace pagesieve::pipeline {

// The stage that decides: the pool fingerprints each event (or, for records
// that come through the repartition topic, decodes what the re-keying stage
// prepared), and each lane runs the Decider against its shard and writes the
// verdict in the mode's format.
class DecideStage final : public Stage {
 public:
  enum class Input { kEvents, kRepartitionRecords };

  // `options`, `clock` and `format` must outlive the stage.
  DecideStage(const engine::EngineOptions& options, const Clock& clock, const OutputFormat& format,
              Input input = Input::kEvents)
      : options_(options),
        clock_(clock),
        format_(format),
        input_(input),
        decider_(options.decider) {}

  engine::PreparePool::PrepareFnFactory PrepareFactory() const override;
  bool stateful() const override { return true; }
  Status Process(engine::PreparedRecord record, const SourceRecord& input,
                 store::TierStores* stores, engine::VerdictCounts& counts,
                 std::vector<OutputMessage>* out) override;
  OutputMessage DeadLetter(const SourceRecord& input, const Status& error,
                           engine::VerdictCounts& counts) override;

 private:
  const engine::EngineOptions& options_;
  const Clock& clock_;
  const OutputFormat& format_;
  const Input input_;
  const engine::Decider decider_;
};

}  // namespace pagesieve::pipeline
