#include "routing/near_owner.h"

#include <algorithm>

#include "common/split_mix64.h"

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

Status NearOwner::Step(Outbox* out) {
  for (auto& released : queue_.Release(progress_.Frontier())) {
    const NearProbeRequest& p = released.item;
    stores_.ObserveEventTime(p.event_time);
    store::NearQuery query;
    query.simhash = p.simhash;
    query.max_distance = table_distance_;
    query.sketch = p.sketch;
    PS_ASSIGN_OR_RETURN(
        std::vector<store::NearCandidate> found,
        stores_.FindNear(p.scope, query, store::OriginFilter{p.input_partition, p.input_offset}));
    out->answers.emplace_back(p.reply_to, NearAnswer{p.key, self_.partition, std::move(found)});
    // The probe keeps its keys until the outcome: see OnOutcome.
  }
  return Status::Ok();
}

Status NearOwner::OnOutcome(const NearOutcome& outcome) {
  if (outcome.insert) {
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
  out += ", " + std::to_string(queue_.in_progress()) + " answered without outcome";
  return out;
}

}  // namespace pagesieve::routing
