#include "routing/near_owner.h"

#include <algorithm>

#include "common/split_mix64.h"
#include "routing/read_point_scope.h"
#include "routing/source_floor.h"

namespace pagesieve::routing {
namespace {

// The queue key of a near key: kind, number and value mixed into 64 bits
// (a collision only makes a probe wait longer).
uint64_t QueueKey(const NearKey& k) {
  return SplitMix64(k.value ^ SplitMix64((static_cast<uint64_t>(k.kind) << 16) |
                                         static_cast<uint64_t>(k.index)));
}

}  // namespace

void NearOwner::OnProbe(NearProbeRequest probe) {
  std::vector<uint64_t> keys;
  keys.reserve(probe.keys.size());
  for (const NearKey& k : probe.keys) keys.push_back(QueueKey(k));
  const OrderKey key = probe.key;
  queue_.Add(key, std::move(keys), std::move(probe));
}

void NearOwner::OnProgress(const Progress& progress) {
  progress_.Promise(progress.from, progress.promise);
  if (progress.decided) decided_.Promise(progress.from, *progress.decided);
}

Status NearOwner::Step(Outbox* out) {
  PS_RETURN_IF_ERROR(AnswerParked(out));
  for (auto& released : queue_.Release(progress_.Frontier())) {
    NearProbeRequest& p = released.item;
    stores_.ObserveEventTime(p.event_time);
    PS_ASSIGN_OR_RETURN(std::optional<NearAnswer> answer, Answer(p));
    if (answer) {
      out->answers.emplace_back(p.reply_to, std::move(*answer));
    } else {
      parked_.emplace(p.key, std::move(p));
    }
    // The probe keeps its keys until the outcome: see OnOutcome.
  }
  return Status::Ok();
}

Status NearOwner::AnswerParked(Outbox* out) {
  for (auto it = parked_.begin(); it != parked_.end();) {
    PS_ASSIGN_OR_RETURN(std::optional<NearAnswer> answer, Answer(it->second));
    if (!answer) {
      ++it;
      continue;
    }
    out->answers.emplace_back(it->second.reply_to, std::move(*answer));
    it = parked_.erase(it);
  }
  return Status::Ok();
}

StatusOr<std::optional<NearAnswer>> NearOwner::Answer(const NearProbeRequest& p) {
  store::NearQuery query;
  query.simhash = p.simhash;
  query.max_distance = table_distance_;
  query.sketch = p.sketch;
  const store::OriginFilter filter{p.input_partition, p.input_offset};
  std::vector<store::NearCandidate> found;
  {
    ReadPointScope at(stores_, p.key.time);
    PS_ASSIGN_OR_RETURN(found, stores_.FindNear(p.scope, query, filter));
  }
  // Every record before the probe is decided, its touches applied (they
  // travel with the decided promise, in order): the answer is final.
  const std::optional<OrderKey> decided = decided_.Frontier();
  if (decided && !(*decided < p.key)) {
    return std::optional<NearAnswer>(NearAnswer{p.key, self_.partition, std::move(found)});
  }
  // An undecided earlier record may touch an entry, and only an entry that
  // was alive at its time, which is no later than the decided promise: if
  // no entry is alive then that is dead now, no touch can change the answer.
  if (decided && decided->time < p.key.time) {
    ReadPointScope at(stores_, decided->time);
    PS_ASSIGN_OR_RETURN(std::vector<store::NearCandidate> earlier,
                        stores_.FindNear(p.scope, query, filter));
    if (earlier.size() == found.size()) {
      return std::optional<NearAnswer>(NearAnswer{p.key, self_.partition, std::move(found)});
    }
  } else if (decided) {
    // The same event time: nothing alive then is dead now.
    return std::optional<NearAnswer>(NearAnswer{p.key, self_.partition, std::move(found)});
  }
  return std::optional<NearAnswer>();
}

Status NearOwner::OnOutcome(const NearOutcome& outcome) {
  if (outcome.insert) {
    ReadPointScope at(stores_, outcome.key.time);
    // Before Finish: a probe waiting behind this record must find it.
    PS_RETURN_IF_ERROR(
        stores_.InsertNear(outcome.scope, outcome.simhash, outcome.sketch, outcome.origin));
    auto early = early_touches_.find({outcome.scope, outcome.simhash});
    if (early != early_touches_.end()) {
      PS_RETURN_IF_ERROR(stores_.TouchNear(outcome.scope, outcome.simhash, early->second));
      early_touches_.erase(early);
    }
  }
  queue_.Finish(outcome.key);
  return Status::Ok();
}

Status NearOwner::OnTouch(const NearTouch& touch) {
  ReadPointScope at(stores_, touch.key.time);
  Status s = stores_.TouchNear(touch.scope, touch.simhash, touch.time);
  if (s.code() != StatusCode::kNotFound) return s;
  EventTime& latest = early_touches_[{touch.scope, touch.simhash}];
  latest = std::max(latest, touch.time);
  return Status::Ok();
}

std::string NearOwner::DebugString() const {
  std::string out = "near owner " + std::to_string(self_.partition.value()) + ": frontier ";
  const std::optional<OrderKey> frontier = progress_.Frontier();
  out += frontier ? ToString(*frontier) : "none";
  out += ", " + std::to_string(queue_.waiting()) + " queued";
  if (const auto first = queue_.EarliestWaiting()) out += " from " + ToString(*first);
  out += ", " + std::to_string(queue_.in_progress() - parked_.size()) +
         " answered without outcome, " + std::to_string(parked_.size()) + " parked";
  const std::optional<OrderKey> decided = decided_.Frontier();
  out += ", decided below " + (decided ? ToString(*decided) : std::string("none"));
  return out;
}

EventTime NearOwner::ExpiryHold() const {
  const std::optional<OrderKey> frontier = progress_.Frontier();
  const std::optional<OrderKey> decided = decided_.Frontier();
  EventTime hold = frontier ? frontier->time : SourceFloor::kNoFloor;
  // An undecided record may still touch an entry as of its own time.
  hold = std::min(hold, decided ? decided->time : SourceFloor::kNoFloor);
  // Probes waiting, parked, or answered and waiting for their outcome.
  if (const auto first = queue_.EarliestUnfinished()) hold = std::min(hold, first->time);
  return hold;
}

}  // namespace pagesieve::routing
