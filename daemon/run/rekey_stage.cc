#include "run/rekey_stage.h"

#include "kafka/output_messages.h"

namespace pagesieve::run {

engine::PreparePool::PrepareFnFactory RekeyStage::PrepareFactory() const {
  return engine::PreparePool::EventPreparers(options_, clock_);
}

Status RekeyStage::Process(engine::PreparedRecord record, const pipeline::SourceRecord& input,
                           store::TierStores*, engine::VerdictCounts& counts,
                           std::vector<pipeline::OutputMessage>* out) {
  counts.AddRekeyed();
  out->push_back(kafka::RepartitionMessage(std::move(record), input, kafka_.rekey.topic,
                                   kafka_.output.include_body, kafka_.output.max_message_bytes,
                                   options_.fields.body,
                                   options_.fields.body_base64));
  return Status::Ok();
}

pipeline::OutputMessage RekeyStage::DeadLetter(const pipeline::SourceRecord& input,
                                               const Status& error, engine::VerdictCounts& counts) {
  counts.AddDeadLetter();
  return kafka::DeadLetterMessage(input, error, kafka_.output);
}

}  // namespace pagesieve::run
