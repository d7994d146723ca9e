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
      partition,
      Lane{routing::SourceFloor(kafka_.input_topic, partition, lateness, Offset(0), floor),
           std::nullopt, shard, clock_.SteadyNow()});
  return Status::Ok();
}

Status RouteStage::Process(engine::PreparedRecord record, const pipeline::SourceRecord& input,
                           store::TierStores* stores, engine::VerdictCounts& counts,
                           std::vector<pipeline::OutputMessage>* out) {
  Lane& lane = lanes_.at(input.partition);
  lane.last_record = clock_.SteadyNow();
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
                             routing::RoutedRecord{stamped.key, stamped.late, std::move(record)},
                             sent_));
  counts.AddRekeyed();
  return Status::Ok();
}

pipeline::OutputMessage RouteStage::DeadLetter(const pipeline::SourceRecord& input,
                                               const Status& error,
                                               engine::VerdictCounts& counts) {
  counts.AddDeadLetter();
  return format_.DeadLetter(input, error);
}

// A live partition that receives nothing would hold every verdict back: it
// promises nothing new. Once it has had nothing to process for
// routing.idle_timeout (wall time), it is at the head of its log, and any
// record appended from now on comes from a crawl that fetched it about now:
// so its floor rises to now less routing.max_lateness, as if a record
// fetched now had come. A record that comes later below it is late, and
// counted. The floor is kept as the shard's watermark, so the lift is
// checkpointed with the promise it makes.
void RouteStage::MaybeLift(Lane& lane, const LaneRound& round) {
  const Duration idle = kafka_.routing.idle_timeout;
  const Clock::SteadyTime now = clock_.SteadyNow();
  if (!round.drained) {
    lane.last_record = now;  // records wait: not idle, whatever the clock says
    return;
  }
  if (idle.count() <= 0 || lane.floor.ended() || now - lane.last_record < idle) return;
  const EventTime fetched_now = EventTime::FromWallClock(clock_.Now());
  if (fetched_now - kafka_.routing.max_lateness <= lane.floor.floor()) return;
  lane.floor.LiftTo(fetched_now - kafka_.routing.max_lateness);
  lane.shard->ObserveEventTime(fetched_now);
  // The next lift after another idle_timeout: a lift each round would give
  // every transaction a promise to send and wait for.
  lane.last_record = now;
}

// After each round the floor may rise (a backfill's end, an idle lift);
// the promise of it goes at the next commit (BeforeCommit).
Status RouteStage::AfterProcessing(PartitionId partition, const LaneRound& round,
                                   std::vector<pipeline::OutputMessage>*) {
  Lane& lane = lanes_.at(partition);
  if (round.at_end && !lane.floor.ended()) lane.floor.End();
  MaybeLift(lane, round);
  return Status::Ok();
}

bool RouteStage::HoldsOutput(PartitionId partition) const {
  const auto it = lanes_.find(partition);
  if (it == lanes_.end()) return false;
  const Lane& lane = it->second;
  return !lane.promised || *lane.promised < lane.floor.Promise();
}

// Once per transaction, after the records it covers (the same producer,
// the same partitions: the URL owners read the promise after them). They
// see it when the transaction commits, so a promise per round said no more.
void RouteStage::BeforeCommit(PartitionId partition, std::vector<pipeline::OutputMessage>* out) {
  if (!HoldsOutput(partition)) return;
  Lane& lane = lanes_.at(partition);
  lane.promised = lane.floor.Promise();
  Broadcast(kafka_.routing.url_topic, url_owners_.partitions(),
            routing::Progress{routing::SourceId{kafka_.input_topic, partition}, *lane.promised,
                              {}},
            sent_, out);
}

}  // namespace pagesieve::routed
