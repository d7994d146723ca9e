#include "routed/route_stage.h"

#include "kafka/output_messages.h"
#include "routed/routed_output.h"

namespace pagesieve::routed {

engine::PreparePool::PrepareFnFactory RouteStage::PrepareFactory() const {
  return engine::PreparePool::EventPreparers(options_, clock_);
}

Status RouteStage::LaneOpened(PartitionId partition, store::Shard* shard) {
  // A shard never checkpointed has seen nothing: no floor yet.
  EventTime floor = routing::SourceFloor::kNoFloor;
  const Duration lateness = kafka_.routing.max_lateness;
  if (shard->checkpointed_offset() && shard->watermark().millis() > INT64_MIN + lateness.count()) {
    floor = shard->watermark() - lateness;
  }
  lanes_.insert_or_assign(
      partition, Lane{routing::SourceFloor(kafka_.input_topic, partition, lateness, Offset(0), floor),
                      std::nullopt});
  return Status::Ok();
}

Status RouteStage::Process(engine::PreparedRecord record, const pipeline::SourceRecord& input,
                           store::TierStores* stores, engine::VerdictCounts& counts,
                           std::vector<pipeline::OutputMessage>* out) {
  Lane& lane = lanes_.at(input.partition);
  const routing::SourceFloor::Stamped stamped = lane.floor.Stamp(record.event_time, input.lane_offset);
  stores->ObserveEventTime(record.event_time);  // the floor, checkpointed
  if (stamped.late && late_ != nullptr) late_->Increment();
  if (record.skipped()) {
    const engine::Verdict verdict{std::move(record), engine::Decision::Skipped()};
    counts.Add(verdict);
    out->push_back(format_.Verdict(verdict, input));
    return Status::Ok();
  }
  kafka::ForwardInputFields(record, input, kafka_.output.include_body,
                            kafka_.output.max_message_bytes, options_.fields.body,
                            options_.fields.body_base64);
  const PartitionId to = url_owners_.OfUrl(record.scope, record.fingerprints->url);
  out->push_back(ToPartition(kafka_.routing.url_topic, to,
                             routing::RoutedRecord{stamped.key, stamped.late, std::move(record)}));
  counts.AddRekeyed();
  return Status::Ok();
}

pipeline::OutputMessage RouteStage::DeadLetter(const pipeline::SourceRecord& input,
                                               const Status& error,
                                               engine::VerdictCounts& counts) {
  counts.AddDeadLetter();
  return format_.DeadLetter(input, error);
}

// Once per round, after the records it covers (the same producer, the same
// partitions: the URL owners read the promise after them).
Status RouteStage::AfterProcessing(PartitionId partition, bool at_end,
                                   std::vector<pipeline::OutputMessage>* out) {
  Lane& lane = lanes_.at(partition);
  if (at_end && !lane.floor.ended()) lane.floor.End();
  const routing::OrderKey promise = lane.floor.Promise();
  if (lane.promised && !(*lane.promised < promise)) return Status::Ok();
  lane.promised = promise;
  Broadcast(kafka_.routing.url_topic, url_owners_.partitions(),
            routing::Progress{routing::SourceId{kafka_.input_topic, partition}, promise, {}}, out);
  return Status::Ok();
}

}  // namespace pagesieve::routed
