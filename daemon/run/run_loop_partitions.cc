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

void RunLoop::OnAssign(std::vector<RdKafka::TopicPartition*>& partitions) {
  metrics_->rebalances.WithLabels({"assign"}).Inc();
  std::vector<RdKafka::TopicPartition*> opened;
  for (RdKafka::TopicPartition* tp : partitions) {
    const PartitionId p(tp->partition());
    StatusOr<std::unique_ptr<store::Shard>> shard =
        state_->OpenShard(kafka_.input_topic, p, sieve_options_.shard);
    if (!shard.ok()) {
      fatal_ = shard.status().WithContext("partition " + std::to_string(p.value()));
      continue;
    }
    const std::optional<Offset> checkpointed = (*shard)->checkpointed_offset();
    StatusOr<Offset> start = StartOffset(p, checkpointed);
    if (!start.ok()) {
      fatal_ = start.status();
      continue;
    }
    tp->set_offset(start->value());
    auto timed = std::make_unique<TimedShard>(
        std::move(shard).value(), clock_,
        TimedShard::Timers{&metrics_->url_lookup, &metrics_->exact_lookup, &metrics_->near_lookup});
    assigned_[p] = Assigned{next_pipeline_id_++, std::make_unique<PartitionPipeline>(
                                                     kafka_.input_topic, p, std::move(timed),
                                                     *start, pipeline_options_, sieve_, clock_)};
    opened.push_back(tp);
    spdlog::info("assigned {}-{}: starting at offset {}{}", kafka_.input_topic, p.value(),
                 start->value(), checkpointed ? " (shard checkpoint)" : "");
  }
  RdKafka::Error* error = consumer_->incremental_assign(opened);
  if (error != nullptr) {
    fatal_ = Status::Unavailable("incremental_assign: " + error->str());
    delete error;
  }
  // Joined, and every shard assigned so far is open (restoring from a
  // changelog, when it comes, belongs before this). librdkafka calls this
  // at the end of every cooperative rebalance, even with nothing new.
  if (fatal_.ok()) metrics_->SetReady(true);
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
    if (s.ok()) s = pipeline.MaybeCheckpoint(false).status();
    if (!s.ok()) {
      fatal_ = s;
      return false;
    }
    if (pipeline.Drained()) break;
    if (clock_.SteadyNow() > deadline) return false;
    producer_->poll(5);
  }
  StatusOr<std::optional<Offset>> done = pipeline.MaybeCheckpoint(/*force=*/true);
  if (!done.ok()) {
    fatal_ = done.status();
    return false;
  }
  if (*done) (void)Commit({{pipeline.partition(), **done}}, /*sync=*/true);
  return true;
}

void RunLoop::OnRevoke(const std::vector<RdKafka::TopicPartition*>& partitions) {
  metrics_->rebalances.WithLabels({"revoke"}).Inc();
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
  RdKafka::Error* error = consumer_->incremental_unassign(partitions);
  if (error != nullptr) {
    spdlog::warn("incremental_unassign: {}", error->str());
    delete error;
  }
}

void RunLoop::OnLost(const std::vector<RdKafka::TopicPartition*>& partitions) {
  // Another member may own these already: nothing is checkpointed or
  // committed, and what was decided since the last checkpoint is dropped.
  metrics_->rebalances.WithLabels({"lost"}).Inc();
  for (RdKafka::TopicPartition* tp : partitions) {
    spdlog::warn("lost {}-{}: dropping its work since the last checkpoint", kafka_.input_topic,
                 tp->partition());
    assigned_.erase(PartitionId(tp->partition()));
  }
  RdKafka::Error* error = consumer_->incremental_unassign(partitions);
  if (error != nullptr) delete error;
}

}  // namespace pagesieve::run
