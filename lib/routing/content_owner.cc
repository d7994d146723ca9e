#include "routing/content_owner.h"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "routing/held_state.h"
#include "routing/read_point_scope.h"
#include "routing/source_floor.h"

namespace pagesieve::routing {
namespace {

// The queue key of a content digest: its first 8 bytes (a collision only
// makes a record wait longer).
uint64_t QueueKey(const Digest128& digest) {
  uint64_t k = 0;
  std::memcpy(&k, digest.bytes.data(), sizeof k);
  return k;
}

}  // namespace

void ContentOwner::OnRecord(RoutedRecord record) {
  const OrderKey key = record.key;
  const uint64_t digest = QueueKey(record.record.fingerprints->content);
  std::string held = EncodeMessage(record);
  if (queue_.Add(key, {digest}, std::move(record))) {
    stores_.PutHeld(HeldKey(HeldKind::kRecord, key), std::move(held));
  }
}

void ContentOwner::OnProgress(const Progress& progress) {
  if (progress_.Promise(progress.from, progress.promise)) {
    HoldPromise(stores_, progress.from, progress_);
  }
}

std::vector<PartitionId> ContentOwner::ProbedOwners(const engine::PreparedRecord& r) const {
  std::vector<PartitionId> owners;
  const engine::Fingerprints& fp = *r.fingerprints;
  for (const NearProbe& p : plan_.Probes(near_owners_, r.scope, *fp.simhash, fp.minhash)) {
    owners.push_back(p.owner);
  }
  return owners;
}

Status ContentOwner::Restore() {
  std::map<OrderKey, RoutedRecord> records;
  std::set<OrderKey> gathering;
  std::vector<NearAnswer> answers;
  std::vector<NearFetchReply> replies;
  PS_RETURN_IF_ERROR(ForEachHeldItem(stores_, [&](HeldKind kind, std::string_view key,
                                                  std::optional<Message> m) -> Status {
    switch (kind) {
      case HeldKind::kPromise:
        if (!m || !std::holds_alternative<Progress>(*m)) break;
        progress_.Promise(std::get<Progress>(*m).from, std::get<Progress>(*m).promise);
        return Status::Ok();
      case HeldKind::kRecord:
        if (!m || !std::holds_alternative<RoutedRecord>(*m)) break;
        records.emplace(std::get<RoutedRecord>(*m).key, std::move(std::get<RoutedRecord>(*m)));
        return Status::Ok();
      case HeldKind::kGathering: {
        StatusOr<OrderKey> k = DecodeOrderKey(key.substr(1));
        if (!k.ok()) break;
        gathering.insert(*k);
        return Status::Ok();
      }
      case HeldKind::kAnswer:
        if (!m || !std::holds_alternative<NearAnswer>(*m)) break;
        answers.push_back(std::move(std::get<NearAnswer>(*m)));
        return Status::Ok();
      case HeldKind::kFetchReply:
        if (!m || !std::holds_alternative<NearFetchReply>(*m)) break;
        replies.push_back(std::move(std::get<NearFetchReply>(*m)));
        return Status::Ok();
      default:
        break;
    }
    return Status::Corruption("a content owner's shard holds what a content owner does not");
  }));
  for (auto& [key, r] : records) {
    const uint64_t digest = QueueKey(r.record.fingerprints->content);
    if (!gathering.contains(key)) {
      queue_.Add(key, {digest}, std::move(r));
      continue;
    }
    // Its probes went out with the checkpoint that held it: wait for the
    // answers not counted yet.
    queue_.AddReleased(key, {digest});
    Gathering g;
    g.probed = ProbedOwners(r.record);
    g.waiting_for.insert(g.probed.begin(), g.probed.end());
    g.record = std::move(r);
    gathering_.emplace(key, std::move(g));
  }
  for (NearAnswer& a : answers) {
    auto it = gathering_.find(a.key);
    if (it == gathering_.end() || it->second.waiting_for.erase(a.from) == 0) {
      return Status::Corruption("a content owner's shard holds an answer for no record it gathers");
    }
    Merge(a, it->second);
  }
  // A record whose answers are all held sent its fetches with the last one
  // (a record with nothing to fetch was decided then): wait for the
  // replies not held.
  for (auto& [key, g] : gathering_) {
    if (!g.waiting_for.empty()) continue;
    for (const auto& [home, fetch] : Fetches(key, g)) {
      g.fetched.push_back(home);
      g.fetching.insert(home);
    }
  }
  for (const NearFetchReply& reply : replies) {
    auto it = gathering_.find(reply.key);
    if (it == gathering_.end() || it->second.fetching.erase(reply.from) == 0) {
      return Status::Corruption("a content owner's shard holds a reply for no fetch it waits for");
    }
    Fill(reply.entries, it->second);
  }
  return Status::Ok();
}

void ContentOwner::Merge(const NearAnswer& answer, Gathering& g) const {
  const std::string& scope = g.record.record.scope;
  for (const store::NearCandidate& c : answer.candidates) {
    g.candidates.push_back(c);
    g.whole.push_back(plan_.Home(near_owners_, scope, c.simhash) == answer.from);
  }
}

std::map<PartitionId, NearFetch> ContentOwner::Fetches(const OrderKey& key,
                                                       const Gathering& g) const {
  const std::string& scope = g.record.record.scope;
  // An entry is wanted when no copy of it came whole (several owners may
  // answer with one entry).
  auto wanted_of = [](const store::NearCandidate& c) {
    return NearWanted{c.simhash, store::PositionOf(c.origin)};
  };
  std::vector<NearWanted> have;
  for (size_t i = 0; i < g.candidates.size(); ++i) {
    if (g.whole[i]) have.push_back(wanted_of(g.candidates[i]));
  }
  std::map<PartitionId, NearFetch> fetches;
  for (size_t i = 0; i < g.candidates.size(); ++i) {
    const store::NearCandidate& c = g.candidates[i];
    const NearWanted wanted = wanted_of(c);
    if (g.whole[i] || std::find(have.begin(), have.end(), wanted) != have.end()) continue;
    const PartitionId home = plan_.Home(near_owners_, scope, c.simhash);
    NearFetch& f = fetches[home];
    if (std::find(f.wanted.begin(), f.wanted.end(), wanted) != f.wanted.end()) continue;
    f.key = key;
    f.reply_to = self_.partition;
    f.scope = scope;
    f.wanted.push_back(wanted);
  }
  return fetches;
}

void ContentOwner::Fill(const std::vector<store::NearCandidate>& whole, Gathering& g) {
  for (const store::NearCandidate& e : whole) {
    for (size_t i = 0; i < g.candidates.size(); ++i) {
      store::NearCandidate& c = g.candidates[i];
      if (g.whole[i] || c.simhash != e.simhash ||
          store::PositionOf(c.origin) != store::PositionOf(e.origin)) {
        continue;
      }
      c.origin = e.origin;
      c.sketch = e.sketch;
      g.whole[i] = true;
    }
  }
}

Status ContentOwner::Step(Outbox* out) {
  const std::optional<OrderKey> frontier = progress_.Frontier();
  // A record decided at once finishes its digest, which may free the next
  // record with that digest: release again until nothing moves.
  for (bool moved = true; moved;) {
    std::vector<KeyedSequencer<RoutedRecord>::Released> released = queue_.Release(frontier);
    moved = !released.empty();
    for (auto& rel : released) {
      RoutedRecord& r = rel.item;
      const engine::Fingerprints& fp = *r.record.fingerprints;
      ReadPointScope at(stores_, r.key.time);
      // What the exact tier will find: the digest is this record's to hold,
      // so the answer cannot change before it is decided. At the watermark
      // the decision sees, which counts the record's own event time.
      stores_.ObserveEventTime(r.record.event_time);
      PS_ASSIGN_OR_RETURN(std::optional<store::ContentEntry> exact,
                          stores_.LookupContent(r.record.scope, fp.content,
                                                decider_.ReplayFilter(r.record)));
      if (exact || !fp.simhash) {
        PS_RETURN_IF_ERROR(Decide(std::move(r), {}, std::nullopt, out));
      } else {
        stores_.PutHeld(HeldKey(HeldKind::kGathering, rel.key), std::string());
        PS_RETURN_IF_ERROR(Probe(std::move(r), out));
      }
    }
  }
  // Records still queued have sent no probe yet: the promise stays below
  // the first of them. Records gathering have not sent their outcomes: the
  // decided promise stays below the first of those too.
  std::optional<OrderKey> promise = frontier;
  const std::optional<OrderKey> queued = queue_.EarliestWaiting();
  if (promise && queued && *queued < *promise) promise = queued;
  std::optional<OrderKey> decided = promise;
  if (decided && !gathering_.empty() && gathering_.begin()->first < *decided) {
    decided = gathering_.begin()->first;
  }
  const bool promise_rose = promise && (!promised_ || *promised_ < *promise);
  const bool decided_rose = decided && (!decided_ || *decided_ < *decided);
  if (promise_rose || decided_rose) {
    if (promise_rose) promised_ = promise;
    if (decided_rose) decided_ = decided;
    out->progress.push_back(Progress{self_, *promised_, decided_});
  }
  return Status::Ok();
}

Status ContentOwner::Probe(RoutedRecord r, Outbox* out) {
  const engine::PreparedRecord& rec = r.record;
  const engine::Fingerprints& fp = *rec.fingerprints;
  Gathering g;
  for (NearProbe& p : plan_.Probes(near_owners_, rec.scope, *fp.simhash, fp.minhash)) {
    NearProbeRequest req;
    req.key = r.key;
    req.reply_to = self_.partition;
    req.scope = rec.scope;
    req.keys = std::move(p.keys);
    req.simhash = *fp.simhash;
    req.sketch = fp.minhash;
    req.event_time = rec.event_time;
    // The near owner filters as the decider does; partition -1 (no
    // partition) when it does not (routed dedup on Kafka).
    const store::OriginFilter filter = decider_.ReplayFilter(rec);
    req.input_partition = filter.partition.value_or(PartitionId(-1));
    req.input_offset = filter.offset;
    g.probed.push_back(p.owner);
    g.waiting_for.insert(p.owner);
    out->probes.emplace_back(p.owner, std::move(req));
  }
  const OrderKey key = r.key;
  g.record = std::move(r);
  gathering_.emplace(key, std::move(g));
  return Status::Ok();
}

Status ContentOwner::OnAnswer(const NearAnswer& answer, Outbox* out) {
  auto it = gathering_.find(answer.key);
  if (it == gathering_.end() || it->second.waiting_for.erase(answer.from) == 0) {
    // A repeat of an answer already counted (a redelivery): nothing to do.
    return Status::Ok();
  }
  Gathering& g = it->second;
  Merge(answer, g);
  if (!g.waiting_for.empty()) {
    stores_.PutHeld(HeldAnswerKey(answer.key, answer.from), EncodeMessage(answer));
    return Status::Ok();
  }
  // Every owner answered: fetch what came in part, or decide.
  std::map<PartitionId, NearFetch> fetches = Fetches(answer.key, g);
  if (fetches.empty()) return DecideGathered(it, out);
  // Held with the fetches, so that a restart waits for their replies.
  stores_.PutHeld(HeldAnswerKey(answer.key, answer.from), EncodeMessage(answer));
  for (auto& [home, fetch] : fetches) {
    g.fetched.push_back(home);
    g.fetching.insert(home);
    out->fetches.emplace_back(home, std::move(fetch));
  }
  return Status::Ok();
}

Status ContentOwner::OnFetchReply(const NearFetchReply& reply, Outbox* out) {
  auto it = gathering_.find(reply.key);
  if (it == gathering_.end() || it->second.fetching.erase(reply.from) == 0) {
    return Status::Ok();  // a repeat of a reply already counted
  }
  Fill(reply.entries, it->second);
  if (!it->second.fetching.empty()) {
    stores_.PutHeld(HeldFetchReplyKey(reply.key, reply.from), EncodeMessage(reply));
    return Status::Ok();
  }
  return DecideGathered(it, out);
}

Status ContentOwner::DecideGathered(std::map<OrderKey, Gathering>::iterator it, Outbox* out) {
  Gathering& g = it->second;
  // A copy left in part is another owner's answer with an entry its home
  // gave whole too (Fetches wanted it not): completed from that one.
  std::vector<store::NearCandidate> whole;
  for (size_t i = 0; i < g.candidates.size(); ++i) {
    if (g.whole[i]) whole.push_back(g.candidates[i]);
  }
  if (whole.size() < g.candidates.size()) Fill(whole, g);
  if (std::find(g.whole.begin(), g.whole.end(), false) != g.whole.end()) {
    return Status::Internal("routing: a candidate's home did not give it whole");
  }
  RoutedRecord r = std::move(g.record);
  std::vector<PartitionId> probed = std::move(g.probed);
  std::vector<PartitionId> fetched = std::move(g.fetched);
  std::vector<store::NearCandidate> candidates = std::move(g.candidates);
  gathering_.erase(it);
  const OrderKey key = r.key;
  PS_RETURN_IF_ERROR(Decide(std::move(r), probed, std::move(candidates), out));
  for (PartitionId home : fetched) stores_.DeleteHeld(HeldFetchReplyKey(key, home));
  return Status::Ok();
}

Status ContentOwner::Decide(RoutedRecord r, const std::vector<PartitionId>& probed,
                            std::optional<std::vector<store::NearCandidate>> candidates,
                            Outbox* out) {
  const OrderKey key = r.key;
  const bool gathered = candidates.has_value();
  gathered_.Start(std::move(candidates));
  StatusOr<engine::Decision> decided = [&] {
    ReadPointScope at(gathered_, key.time);
    return decider_.DecideContent(r.record, gathered_);
  }();
  PS_RETURN_IF_ERROR(decided.status());
  engine::Decision decision = std::move(decided).value();

  if (gathered) {
    const std::optional<GatheredStores::Insert>& ins = gathered_.inserted();
    for (PartitionId owner : probed) {
      NearOutcome o;
      o.key = key;
      o.insert = ins.has_value();
      if (ins) {
        o.scope = ins->scope;
        o.simhash = ins->simhash;
        o.sketch = ins->sketch;
        o.origin = ins->origin;
      }
      out->outcomes.emplace_back(owner, std::move(o));
    }
    for (const GatheredStores::Touch& t : gathered_.touched()) {
      // The matched entry's rows live with the owners of its own keys.
      const store::NearCandidate* c = gathered_.Gathered(t.simhash);
      if (c == nullptr) {
        return Status::Internal("routing: the rules touched an entry no near owner answered with");
      }
      for (const NearProbe& p : plan_.Probes(near_owners_, t.scope, t.simhash, c->sketch)) {
        out->touches.emplace_back(p.owner, NearTouch{key, t.scope, t.simhash, t.time});
      }
    }
  }
  out->verdicts.push_back(engine::Verdict{std::move(r.record), std::move(decision), r.late});
  queue_.Finish(key);
  stores_.DeleteHeld(HeldKey(HeldKind::kRecord, key));
  if (gathered) {
    stores_.DeleteHeld(HeldKey(HeldKind::kGathering, key));
    for (PartitionId owner : probed) stores_.DeleteHeld(HeldAnswerKey(key, owner));
  }
  return Status::Ok();
}

std::string ContentOwner::DebugString() const {
  std::string out = "content owner " + std::to_string(self_.partition.value()) + ": frontier ";
  const std::optional<OrderKey> frontier = progress_.Frontier();
  out += frontier ? ToString(*frontier) : "none";
  out += ", promised " + (promised_ ? ToString(*promised_) : std::string("none"));
  out += ", " + std::to_string(queue_.waiting()) + " queued";
  if (const auto first = queue_.EarliestWaiting()) {
    out += " from " + ToString(*first) + " (behind";
    for (const OrderKey& b : queue_.Blockers(*first)) out += " " + ToString(b);
    out += ")";
  }
  for (const auto& [key, g] : gathering_) {
    out += "; gathering " + ToString(key) + " from";
    for (PartitionId p : g.waiting_for) out += " " + std::to_string(p.value());
    if (!g.fetching.empty()) out += ", fetching from";
    for (PartitionId p : g.fetching) out += " " + std::to_string(p.value());
  }
  return out;
}

EventTime ContentOwner::ExpiryHold() const {
  const std::optional<OrderKey> frontier = progress_.Frontier();
  EventTime hold = frontier ? frontier->time : SourceFloor::kNoFloor;
  // Records gathering are released and not finished: the queue has them.
  if (const auto first = queue_.EarliestUnfinished()) hold = std::min(hold, first->time);
  return hold;
}

bool ContentOwner::Finished() const {
  const std::optional<OrderKey> frontier = progress_.Frontier();
  return frontier && frontier->time == SourceFloor::kEndOfTime &&
         !queue_.EarliestUnfinished() && gathering_.empty();
}

}  // namespace pagesieve::routing
