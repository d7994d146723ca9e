#include "routing/url_owner.h"

#include <algorithm>

#include "routing/held_state.h"
#include "routing/read_point_scope.h"
#include "routing/source_floor.h"

namespace pagesieve::routing {

void UrlOwner::OnRecord(RoutedRecord record) {
  const OrderKey key = record.key;
  std::string held = EncodeMessage(record);
  // No keys: the URL tier never waits, so records leave in order.
  if (queue_.Add(key, {}, std::move(record))) {
    stores_.PutHeld(HeldKey(HeldKind::kRecord, key), std::move(held));
  }
}

void UrlOwner::OnProgress(const Progress& progress) {
  if (progress_.Promise(progress.from, progress.promise)) {
    HoldPromise(stores_, progress.from, progress_);
  }
}

Status UrlOwner::Restore() {
  return ForEachHeldItem(stores_, [&](HeldKind kind, std::string_view,
                                      std::optional<Message> m) -> Status {
    if (kind == HeldKind::kPromise && m && std::holds_alternative<Progress>(*m)) {
      const Progress& p = std::get<Progress>(*m);
      progress_.Promise(p.from, p.promise);
      return Status::Ok();
    }
    if (kind == HeldKind::kRecord && m && std::holds_alternative<RoutedRecord>(*m)) {
      RoutedRecord& r = std::get<RoutedRecord>(*m);
      const OrderKey key = r.key;
      queue_.Add(key, {}, std::move(r));
      return Status::Ok();
    }
    return Status::Corruption("a URL owner's shard holds what a URL owner does not");
  });
}

Status UrlOwner::Step(Outbox* out) {
  const std::optional<OrderKey> frontier = progress_.Frontier();
  for (auto& released : queue_.Release(frontier)) {
    RoutedRecord& r = released.item;
    std::optional<engine::Decision> by_url;
    {
      ReadPointScope at(stores_, r.key.time);
      PS_ASSIGN_OR_RETURN(by_url, decider_.DecideUrl(r.record, stores_));
    }
    if (by_url) {
      out->verdicts.push_back(engine::Verdict{std::move(r.record), std::move(*by_url), r.late});
    } else {
      const engine::Fingerprints& fp = *r.record.fingerprints;
      out->records.emplace_back(content_owners_.OfContent(r.record.scope, fp.content),
                                std::move(r));
    }
    queue_.Finish(released.key);
    stores_.DeleteHeld(HeldKey(HeldKind::kRecord, released.key));
  }
  // Everything below the frontier has left: nothing this owner forwards
  // from now on is below it.
  if (frontier && (!promised_ || *promised_ < *frontier)) {
    promised_ = frontier;
    out->progress.push_back(Progress{self_, *frontier});
  }
  return Status::Ok();
}

EventTime UrlOwner::ExpiryHold() const {
  const std::optional<OrderKey> frontier = progress_.Frontier();
  EventTime hold = frontier ? frontier->time : SourceFloor::kNoFloor;
  if (const auto first = queue_.EarliestUnfinished()) hold = std::min(hold, first->time);
  return hold;
}

bool UrlOwner::Finished() const {
  const std::optional<OrderKey> frontier = progress_.Frontier();
  return frontier && frontier->time == SourceFloor::kEndOfTime && !queue_.EarliestUnfinished();
}

}  // namespace pagesieve::routing
