#include "routing/near_owner.h"

#include <algorithm>
#include <set>
#include <vector>

#include "common/split_mix64.h"
#include "routing/held_state.h"
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

std::vector<uint64_t> QueueKeys(const NearProbeRequest& probe) {
  std::vector<uint64_t> keys;
  keys.reserve(probe.keys.size());
  for (const NearKey& k : probe.keys) keys.push_back(QueueKey(k));
  return keys;
}

// The rows of the record's entry this owner holds: those of the keys it
// was asked about, which are the ones it owns (PlanNearProbes).
store::NearRows RowsOf(const NearProbeRequest& probe) {
  store::NearRows rows = store::NearRows::Some();
  for (const NearKey& k : probe.keys) {
    if (k.kind == KeyKind::kTable) rows.AddTable(k.index);
    if (k.kind == KeyKind::kBand) rows.AddBand(k.index);
  }
  return rows;
}

}  // namespace

void NearOwner::OnProbe(NearProbeRequest probe) {
  const OrderKey key = probe.key;
  std::string held = EncodeMessage(probe);
  std::vector<uint64_t> keys = QueueKeys(probe);
  store::NearRows rows = RowsOf(probe);
  if (queue_.Add(key, std::move(keys), std::move(probe))) {
    stores_.PutHeld(HeldKey(HeldKind::kProbe, key), std::move(held));
    rows_of_.emplace(key, std::move(rows));
  }
}

void NearOwner::OnProgress(const Progress& progress) {
  bool rose = progress_.Promise(progress.from, progress.promise);
  if (progress.decided) rose |= decided_.Promise(progress.from, *progress.decided);
  if (rose) HoldPromise(stores_, progress.from, progress_, &decided_);
}

Status NearOwner::Restore() {
  std::map<OrderKey, NearProbeRequest> probes;
  std::set<OrderKey> answered;
  PS_RETURN_IF_ERROR(ForEachHeldItem(stores_, [&](HeldKind kind, std::string_view key,
                                                  std::optional<Message> m) -> Status {
    switch (kind) {
      case HeldKind::kPromise: {
        if (!m || !std::holds_alternative<Progress>(*m)) break;
        const Progress& p = std::get<Progress>(*m);
        progress_.Promise(p.from, p.promise);
        if (p.decided) decided_.Promise(p.from, *p.decided);
        return Status::Ok();
      }
      case HeldKind::kProbe:
        if (!m || !std::holds_alternative<NearProbeRequest>(*m)) break;
        probes.emplace(std::get<NearProbeRequest>(*m).key,
                       std::move(std::get<NearProbeRequest>(*m)));
        return Status::Ok();
      case HeldKind::kAnswered: {
        StatusOr<OrderKey> k = DecodeOrderKey(key.substr(1));
        if (!k.ok()) break;
        answered.insert(*k);
        return Status::Ok();
      }
      case HeldKind::kTouch: {
        if (!m || !std::holds_alternative<NearTouch>(*m)) break;
        const NearTouch& t = std::get<NearTouch>(*m);
        early_touches_[{t.scope, t.simhash}] = t.time;
        return Status::Ok();
      }
      case HeldKind::kFetch: {
        if (!m || !std::holds_alternative<NearFetch>(*m)) break;
        NearFetch& f = std::get<NearFetch>(*m);
        const OrderKey k = f.key;
        fetches_.insert_or_assign(k, std::move(f));
        return Status::Ok();
      }
      default:
        break;
    }
    return Status::Corruption("a near owner's shard holds what a near owner does not");
  }));
  for (auto& [key, probe] : probes) {
    rows_of_.emplace(key, RowsOf(probe));
    // A probe not answered (waiting or parked) is released again and
    // answered as it would have been: nothing it looks at has changed.
    if (answered.contains(key)) {
      queue_.AddReleased(key, QueueKeys(probe));
    } else {
      std::vector<uint64_t> keys = QueueKeys(probe);
      queue_.Add(key, std::move(keys), std::move(probe));
    }
  }
  return Status::Ok();
}

void NearOwner::SendAnswer(NearAnswer answer, PartitionId reply_to, Outbox* out) {
  stores_.PutHeld(HeldKey(HeldKind::kAnswered, answer.key), std::string());
  out->answers.emplace_back(reply_to, std::move(answer));
}

Status NearOwner::Touch(std::string_view scope, uint64_t simhash, EventTime t) {
  return IsHome(scope, simhash) ? stores_.TouchNearHome(scope, simhash, t)
                                : stores_.TouchNear(scope, simhash, t);
}

void NearOwner::OnFetch(NearFetch fetch) {
  const OrderKey key = fetch.key;
  stores_.PutHeld(HeldKey(HeldKind::kFetch, key), EncodeMessage(fetch));
  fetches_.insert_or_assign(key, std::move(fetch));
}

Status NearOwner::ReplyToFetches(Outbox* out) {
  for (auto it = fetches_.begin(); it != fetches_.end();) {
    const NearFetch& f = it->second;
    NearFetchReply reply{f.key, self_.partition, {}};
    for (const NearWanted& w : f.wanted) {
      PS_ASSIGN_OR_RETURN(std::optional<store::NearCandidate> whole,
                          stores_.NearHomeEntry(f.scope, w.simhash, w.at));
      if (!whole) break;  // its insert has not come yet
      reply.entries.push_back(std::move(*whole));
    }
    if (reply.entries.size() < f.wanted.size()) {
      ++it;
      continue;
    }
    out->fetch_replies.emplace_back(f.reply_to, std::move(reply));
    stores_.DeleteHeld(HeldKey(HeldKind::kFetch, it->first));
    it = fetches_.erase(it);
  }
  return Status::Ok();
}

StatusOr<NearAnswer> NearOwner::MakeAnswer(const NearProbeRequest& p,
                                           std::vector<store::NearCandidate> found) {
  for (store::NearCandidate& c : found) {
    if (IsHome(p.scope, c.simhash)) {
      // The row is slim; the incarnation beside it is whole.
      PS_ASSIGN_OR_RETURN(std::optional<store::NearCandidate> whole,
                          stores_.NearHomeEntry(p.scope, c.simhash, store::PositionOf(c.origin)));
      if (!whole) {
        return Status::Corruption("near owner " + std::to_string(self_.partition.value()) +
                                  " is the home of an entry it indexes but does not keep whole");
      }
      c.origin = std::move(whole->origin);
      c.sketch = std::move(whole->sketch);
      continue;
    }
    // Its home gives the rest; the position names the incarnation.
    c.origin.event_id.clear();
    c.origin.url.clear();
    c.sketch.clear();
  }
  return NearAnswer{p.key, self_.partition, std::move(found)};
}

Status NearOwner::Step(Outbox* out) {
  PS_RETURN_IF_ERROR(AnswerParked(out));
  if (!fetches_.empty()) PS_RETURN_IF_ERROR(ReplyToFetches(out));
  for (auto& released : queue_.Release(progress_.Frontier())) {
    NearProbeRequest& p = released.item;
    stores_.ObserveEventTime(p.event_time);
    PS_ASSIGN_OR_RETURN(std::optional<NearAnswer> answer, Answer(p));
    if (answer) {
      SendAnswer(std::move(*answer), p.reply_to, out);
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
    SendAnswer(std::move(*answer), it->second.reply_to, out);
    it = parked_.erase(it);
  }
  return Status::Ok();
}

namespace {

StatusOr<std::optional<NearAnswer>> Answered(StatusOr<NearAnswer> answer) {
  PS_RETURN_IF_ERROR(answer.status());
  return std::optional<NearAnswer>(std::move(answer).value());
}

}  // namespace

StatusOr<std::optional<NearAnswer>> NearOwner::Answer(const NearProbeRequest& p) {
  store::NearQuery query;
  query.simhash = p.simhash;
  query.max_distance = plan_.table_distance();
  query.sketch = p.sketch;
  store::OriginFilter filter;  // none when the content owner filters none
  if (p.input_partition.value() >= 0) filter = {p.input_partition, p.input_offset};
  std::vector<store::NearCandidate> found;
  {
    ReadPointScope at(stores_, p.key.time);
    PS_ASSIGN_OR_RETURN(found, stores_.FindNear(p.scope, query, filter));
  }
  // Every record before the probe is decided, its touches applied (they
  // travel with the decided promise, in order): the answer is final.
  const std::optional<OrderKey> decided = decided_.Frontier();
  if (decided && !(*decided < p.key)) {
    return Answered(MakeAnswer(p, std::move(found)));
  }
  // An undecided earlier record may touch an entry, and only an entry that
  // was alive at its time, which is no later than the decided promise: if
  // no entry is alive then that is dead now, no touch can change the answer.
  if (decided && decided->time < p.key.time) {
    ReadPointScope at(stores_, decided->time);
    PS_ASSIGN_OR_RETURN(std::vector<store::NearCandidate> earlier,
                        stores_.FindNear(p.scope, query, filter));
    if (earlier.size() == found.size()) {
      return Answered(MakeAnswer(p, std::move(found)));
    }
  } else if (decided) {
    // The same event time: nothing alive then is dead now.
    return Answered(MakeAnswer(p, std::move(found)));
  }
  return std::optional<NearAnswer>();
}

Status NearOwner::OnOutcome(const NearOutcome& outcome) {
  auto rows = rows_of_.find(outcome.key);
  if (outcome.insert) {
    ReadPointScope at(stores_, outcome.key.time);
    // Before Finish: a probe waiting behind this record must find it. Only
    // the rows of the keys this owner owns; a repeat outcome, whose probe
    // is gone, finds its entry live and touches it (every row is the safe
    // answer should it not: extra rows find nothing another owner misses).
    const bool home = IsHome(outcome.scope, outcome.simhash);
    PS_RETURN_IF_ERROR(stores_.InsertNearRows(
        outcome.scope, outcome.simhash, outcome.sketch, outcome.origin,
        rows != rows_of_.end() ? rows->second : store::NearRows::All(), home));
    auto early = early_touches_.find({outcome.scope, outcome.simhash});
    if (early != early_touches_.end()) {
      PS_RETURN_IF_ERROR(Touch(outcome.scope, outcome.simhash, early->second));
      early_touches_.erase(early);
      stores_.DeleteHeld(HeldTouchKey(outcome.scope, outcome.simhash));
    }
  }
  if (queue_.Finish(outcome.key)) {
    stores_.DeleteHeld(HeldKey(HeldKind::kProbe, outcome.key));
    stores_.DeleteHeld(HeldKey(HeldKind::kAnswered, outcome.key));
  }
  if (rows != rows_of_.end()) rows_of_.erase(rows);
  return Status::Ok();
}

Status NearOwner::OnTouch(const NearTouch& touch) {
  ReadPointScope at(stores_, touch.key.time);
  Status s = Touch(touch.scope, touch.simhash, touch.time);
  if (s.code() != StatusCode::kNotFound) return s;
  EventTime& latest = early_touches_[{touch.scope, touch.simhash}];
  latest = std::max(latest, touch.time);
  stores_.PutHeld(HeldTouchKey(touch.scope, touch.simhash),
                  EncodeMessage(NearTouch{touch.key, touch.scope, touch.simhash, latest}));
  return Status::Ok();
}

std::string NearOwner::DebugString() const {
  std::string out = "near owner " + std::to_string(self_.partition.value()) + ": frontier ";
  const std::optional<OrderKey> frontier = progress_.Frontier();
  out += frontier ? ToString(*frontier) : "none";
  out += ", " + std::to_string(queue_.waiting()) + " queued";
  if (const auto first = queue_.EarliestWaiting()) out += " from " + ToString(*first);
  out += ", " + std::to_string(queue_.in_progress() - parked_.size()) +
         " answered without outcome, " + std::to_string(parked_.size()) + " parked, " +
         std::to_string(fetches_.size()) + " fetches waiting";
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
  // A fetch's record is undecided, so the decided promise is below it
  // already; said again, as the incarnations it wants must stay.
  if (!fetches_.empty()) hold = std::min(hold, fetches_.begin()->first.time);
  return hold;
}

// The content owners' decided promises at the end too: every outcome and
// touch they will send has come.
bool NearOwner::Finished() const {
  const std::optional<OrderKey> frontier = progress_.Frontier();
  const std::optional<OrderKey> decided = decided_.Frontier();
  return frontier && frontier->time == SourceFloor::kEndOfTime && decided &&
         decided->time == SourceFloor::kEndOfTime && !queue_.EarliestUnfinished() &&
         parked_.empty() && fetches_.empty();
}

}  // namespace pagesieve::routing
