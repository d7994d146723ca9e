#include "pipeline/decide_stage.h"

#include "engine/repartition_record.h"

namespace pagesieve::pipeline {

engine::PreparePool::PrepareFnFactory DecideStage::PrepareFactory() const {
  if (input_ == Input::kRepartitionRecords) {
    // Fingerprinting was done by the re-keying stage: decoding is all.
    return []() -> engine::PreparePool::PrepareFn {
      return [](const engine::InputRecord& r) { return engine::DecodeRepartitionRecord(r.value); };
    };
  }
  return engine::PreparePool::EventPreparers(options_, clock_);
}

Status DecideStage::Process(engine::PreparedRecord record, const SourceRecord& input,
                            store::TierStores* stores, engine::VerdictCounts& counts,
                            std::vector<OutputMessage>* out) {
  PS_ASSIGN_OR_RETURN(engine::Decision decision, decider_.Decide(record, *stores));
  const engine::Verdict verdict{std::move(record), std::move(decision)};
  counts.Add(verdict);
  out->push_back(format_.Verdict(verdict, input));
  return Status::Ok();
}

OutputMessage DecideStage::DeadLetter(const SourceRecord& input, const Status& error,
                                      engine::VerdictCounts& counts) {
  counts.AddDeadLetter();
  return format_.DeadLetter(input, error);
}

}  // namespace pagesieve::pipeline
