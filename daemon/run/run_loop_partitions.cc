// The partition lifecycle of the run loop: assignment, revocation, loss.
#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

#include "run/run_loop.h"
#include "run/timed_shard.h"

namespace pagesieve::run {

StatusOr<std::pair<int64_t, int64_t>> RunLoop::Watermarks(PartitionId partition) {
  int64_t low = 0, high = 0;
  const RdKafka::ErrorCode err =
      consumer_->query_watermark_offsets(kafka_.input_topic, partition.value(), &low, &high, 10000);
  if (err != RdKafka::ERR_NO_ERROR) {
    return Status::Unavailable("watermarks of " + kafka_.input_topic + "-" +
                               std::to_string(partition.value()) + ": " + RdKafka::err2str(err));
  }
  return std::make_pair(low, high);
}

StatusOr<Offset> RunLoop::StartOffset(PartitionId p, const std::optional<Offset>& checkpointed) {
  PS_ASSIGN_OR_RETURN(auto marks, Watermarks(p));
  const auto [low, high] = marks;
  const bool first_time = started_once_.insert(p).second;
  if (first_time && run_.from.kind != StartPosition::Kind::kCheckpoint) {
    switch (run_.from.kind) {
      case StartPosition::Kind::kEarliest: return Offset(low);
      case StartPosition::Kind::kLatest: return Offset(high);
      case StartPosition::Kind::kTime: {
        std::vector<RdKafka::TopicPartition*> parts = {
            RdKafka::TopicPartition::create(kafka_.input_topic, p.value(), ToMillis(run_.from.time))};
        const RdKafka::ErrorCode err = consumer_->offsetsForTimes(parts, 10000);
        const int64_t found = parts[0]->offset();
        RdKafka::TopicPartition::destroy(parts);
        if (err != RdKafka::ERR_NO_ERROR) {
          return Status::Unavailable("offsets for --from time: " + RdKafka::err2str(err));
        }
        return Offset(found >= 0 ? found : high);  // none that late: start at the end
      }
      case StartPosition::Kind::kCheckpoint: break;
    }
  }
  // The shard's checkpoint wins over the group's committed offset: state and
  // position were saved together.
  if (checkpointed) return Offset(std::clamp(checkpointed->value(), low, high));
  std::vector<RdKafka::TopicPartition*> parts = {
      RdKafka::TopicPartition::create(kafka_.input_topic, p.value())};
  const RdKafka::ErrorCode err = consumer_->committed(parts, 10000);
  const int64_t committed = parts[0]->offset();
  RdKafka::TopicPartition::destroy(parts);
  if (err == RdKafka::ERR_NO_ERROR && committed >= 0) {
    // State that is missing or behind (a new machine): the records from the
    // committed offset on are decided against what state there is.
    return Offset(std::clamp(committed, low, high));
  }
  return Offset(low);  // a new group: from the earliest record
}

StatusOr<RdKafka::TopicPartition*> RunLoop::OpenPartition(PartitionId p) {
  std::unique_ptr<store::Shard> timed;  // none in the re-keying stage
  std::optional<Offset> checkpointed;
  if (stateful()) {
    PS_ASSIGN_OR_RETURN(std::unique_ptr<store::Shard> shard,
                        state_->OpenShard(kafka_.input_topic, p, sieve_options_.shard));
    checkpointed = shard->checkpointed_offset();
    timed = std::make_unique<TimedShard>(
        std::move(shard), clock_,
        TimedShard::Timers{&metrics_->url_lookup, &metrics_->exact_lookup, &metrics_->near_lookup});
  }
  PS_ASSIGN_OR_RETURN(Offset start, StartOffset(p, checkpointed));
  assigned_[p] = Assigned{next_pipeline_id_++,
                          std::make_unique<PartitionPipeline>(kafka_.input_topic, p,
                                                              std::move(timed), start,
                                                              pipeline_options_, sieve_, clock_)};
  unowned_since_.erase(p);
  spdlog::info("assigned {}-{}: starting at offset {}{}", kafka_.input_topic, p.value(),
               start.value(), checkpointed ? " (shard checkpoint)" : "");
  return RdKafka::TopicPartition::create(kafka_.input_topic, p.value(), start.value());
}

void RunLoop::OnAssign(std::vector<RdKafka::TopicPartition*>& partitions) {
  metrics_->rebalances.WithLabels({"assign"}).Inc();
  std::vector<RdKafka::TopicPartition*> opened;
  for (RdKafka::TopicPartition* tp : partitions) {
    const PartitionId p(tp->partition());
    unowned_since_.erase(p);
    if (restorer_) {
      // A shard behind the changelog is restored first; its partition joins
      // the consumer's assignment when that is done (AdvanceRestores).
      StatusOr<bool> restoring = restorer_->Begin(p);
      if (!restoring.ok()) {
        fatal_ = restoring.status().WithContext("partition " + std::to_string(p.value()));
        continue;
      }
      if (*restoring) continue;
    }
    StatusOr<RdKafka::TopicPartition*> opened_one = OpenPartition(p);
    if (!opened_one.ok()) {
      fatal_ = opened_one.status().WithContext("partition " + std::to_string(p.value()));
      continue;
    }
    opened.push_back(*opened_one);
  }
  RdKafka::Error* error = consumer_->incremental_assign(opened);
  RdKafka::TopicPartition::destroy(opened);
  if (error != nullptr) {
    fatal_ = Status::Unavailable("incremental_assign: " + error->str());
    delete error;
  }
  // librdkafka calls this at the end of every cooperative rebalance, even
  // with nothing new: joined, and ready once every assigned shard is open.
  UpdateReadiness();
}

void RunLoop::UpdateReadiness() {
  metrics_->SetReady(fatal_.ok() && !(restorer_ && restorer_->busy()));
}

Status RunLoop::AdvanceRestores() {
  if (!restorer_ || !restorer_->busy()) return Status::Ok();
  PS_ASSIGN_OR_RETURN(std::vector<PartitionId> done,
                      restorer_->Advance(std::chrono::milliseconds(50)));
  if (done.empty()) return Status::Ok();
  std::vector<RdKafka::TopicPartition*> opened;
  for (PartitionId p : done) {
    StatusOr<RdKafka::TopicPartition*> one = OpenPartition(p);
    if (!one.ok()) {
      RdKafka::TopicPartition::destroy(opened);
      return one.status().WithContext("partition " + std::to_string(p.value()));
    }
    opened.push_back(*one);
  }
  RdKafka::Error* error = consumer_->incremental_assign(opened);
  RdKafka::TopicPartition::destroy(opened);
  if (error != nullptr) {
    const Status s = Status::Unavailable("incremental_assign: " + error->str());
    delete error;
    return s;
  }
  UpdateReadiness();
  return Status::Ok();
}

bool RunLoop::DrainPartition(Assigned& a, Clock::SteadyTime deadline) {
  PartitionPipeline& pipeline = *a.pipeline;
  for (;;) {
    uint64_t seq = 0;
    while (auto batch = pipeline.TakeBatch(/*flush=*/true, &seq)) {
      pool_->Submit(std::move(batch),
                    [this, id = a.id, seq](std::unique_ptr<engine::PrepareBatch> done) {
                      completions_.Push({id, seq, std::move(done)});
                    });
    }
    DispatchCompletions();
    Status s = pipeline.Decide(*sink_, std::numeric_limits<int64_t>::max(), &counts_);
    if (!s.ok()) {
      fatal_ = s;
      return false;
    }
    // Once everything is decided and acknowledged, a final checkpoint; with
    // a changelog it takes a few rounds (ship, acknowledgements, commit).
    const bool decided_all = pipeline.Drained();
    StatusOr<std::optional<Offset>> done = pipeline.MaybeCheckpoint(*sink_, decided_all);
    if (!done.ok()) {
      fatal_ = done.status();
      return false;
    }
    if (*done) (void)Commit({{pipeline.partition(), **done}}, /*sync=*/decided_all);
    if (pipeline.Drained() && pipeline.Checkpointed()) return true;
    if (clock_.SteadyNow() > deadline) return false;
    producer_->poll(5);
  }
}

// The partitions of a revocation the consumer was actually given: those
// still restoring never were. Cancels their restores.
std::vector<RdKafka::TopicPartition*> RunLoop::StopRestoring(
    const std::vector<RdKafka::TopicPartition*>& partitions) {
  std::vector<RdKafka::TopicPartition*> assigned;
  for (RdKafka::TopicPartition* tp : partitions) {
    const PartitionId p(tp->partition());
    unowned_since_[p] = clock_.SteadyNow();
    if (restorer_ && restorer_->restoring(p)) {
      restorer_->Cancel(p);
    } else {
      assigned.push_back(tp);
    }
  }
  UpdateReadiness();
  return assigned;
}

void RunLoop::OnRevoke(const std::vector<RdKafka::TopicPartition*>& all) {
  metrics_->rebalances.WithLabels({"revoke"}).Inc();
  const std::vector<RdKafka::TopicPartition*> partitions = StopRestoring(all);
  const auto deadline = clock_.SteadyNow() + run_.shutdown_timeout;
  for (RdKafka::TopicPartition* tp : partitions) {
    auto it = assigned_.find(PartitionId(tp->partition()));
    if (it == assigned_.end()) continue;
    if (!abandon_on_revoke_ && !DrainPartition(it->second, deadline)) {
      spdlog::warn("revoked {}-{} before its records were finished; its next owner decides "
                   "them again from offset {}",
                   kafka_.input_topic, tp->partition(),
                   it->second.pipeline->checkpointed_offset().value_or(Offset(-1)).value());
    }
    spdlog::info("revoked {}-{}", kafka_.input_topic, tp->partition());
    assigned_.erase(it);  // closes the shard
  }
  if (partitions.empty()) return;
  RdKafka::Error* error = consumer_->incremental_unassign(partitions);
  if (error != nullptr) {
    spdlog::warn("incremental_unassign: {}", error->str());
    delete error;
  }
}

void RunLoop::OnLost(const std::vector<RdKafka::TopicPartition*>& all) {
  // Another member may own these already: nothing is checkpointed or
  // committed, and what was decided since the last checkpoint is dropped.
  metrics_->rebalances.WithLabels({"lost"}).Inc();
  const std::vector<RdKafka::TopicPartition*> partitions = StopRestoring(all);
  for (RdKafka::TopicPartition* tp : partitions) {
    spdlog::warn("lost {}-{}: dropping its work since the last checkpoint", kafka_.input_topic,
                 tp->partition());
    assigned_.erase(PartitionId(tp->partition()));
  }
  if (partitions.empty()) return;
  RdKafka::Error* error = consumer_->incremental_unassign(partitions);
  if (error != nullptr) delete error;
}

}  // namespace pagesieve::run
