#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/status.h"
#include "engine/decider.h"
#include "routing/gathered_stores.h"
#include "routing/keyed_sequencer.h"
#include "routing/messages.h"
#include "routing/near_plan.h"
#include "routing/ownership.h"
#include "routing/progress_tracker.h"
#include "store/shard.h"

namespace pagesieve::routing {

// One partition of the content owners (docs/global-routing.md, "The
// stages"): it holds the exact entries whose digests it owns and decides
// every record that passed the URL tier.
//
// It takes its records in order. A live exact entry, or a page without a
// SimHash, is decided at once. Any other record will insert its digest only
// if it ends unique, so a later record with the same digest waits for it
// (KeyedSequencer); this one sends its near probes, gathers every answer,
// fetches from their homes the candidates the answers gave without their
// origin and sketch (NearPlan::Home), and decides with
// engine::Decider::DecideContent on a GatheredStores. The
// outcome goes to the near owners it probed (insert its entries, or not),
// and a touch to the owners of the entry it matched.
//
// Its unfinished work (records queued or gathering, the answers counted,
// the sources' promises) is held in its shard (held_state.h): a checkpoint
// keeps it, and Restore() takes it back after a restart.
//
// Not thread-safe: the partition's one thread.
class ContentOwner {
 public:
  // Everything passed by reference must outlive the owner.
  ContentOwner(SourceId self, const engine::Decider& decider, store::Shard& stores,
               const Ownership& near_owners, const NearPlan& plan)
      : self_(std::move(self)),
        decider_(decider),
        stores_(stores),
        gathered_(stores),
        near_owners_(near_owners),
        plan_(plan) {}

  // A URL owner partition this owner hears from (every one of that stage).
  void Expect(const SourceId& source) { progress_.Expect(source); }
  void OnRecord(RoutedRecord record);
  void OnProgress(const Progress& progress);
  // Takes back the work its shard holds, as of the shard's last checkpoint
  // (call once, before any message): a record gathering waits for the
  // answers not yet counted, and sends no probe again. Corruption when the
  // shard holds what this build did not write.
  Status Restore();
  // A near owner's answer for a record this owner probed it for. A record
  // is decided once all its owners answered, and the homes of the
  // candidates they gave in part replied to its fetches.
  Status OnAnswer(const NearAnswer& answer, Outbox* out);
  // A home's reply to a fetch this owner sent.
  Status OnFetchReply(const NearFetchReply& reply, Outbox* out);

  // The earliest time this owner may still judge liveness at: its records
  // not yet finished, and those still to come (its frontier). Its shard
  // must not expire what is live then (store::Shard::HoldExpiry).
  EventTime ExpiryHold() const;

  // Takes every ready record, then promises the near owners what it has
  // passed. An error is the store failing: the partition stops.
  Status Step(Outbox* out);
  // Every source ended and nothing is left in flight here: nothing more
  // will come (a backfill's end).
  bool Finished() const;

  // Records sent to the near owners and not yet decided.
  size_t gathering() const { return gathering_.size(); }
  // Its frontier, promise, queue and the records it gathers for, for logs
  // and test failures.
  std::string DebugString() const;

 private:
  struct Gathering {
    RoutedRecord record;
    std::vector<PartitionId> probed;  // the owners its outcome goes to
    std::set<PartitionId> waiting_for;
    std::vector<store::NearCandidate> candidates;
    std::vector<bool> whole;  // per candidate: its home gave it
    // Once every answer is in: the homes fetched from, and those whose
    // replies have not come.
    std::vector<PartitionId> fetched;
    std::set<PartitionId> fetching;
  };

  // Adds an answer's candidates to `g`.
  void Merge(const NearAnswer& answer, Gathering& g) const;
  // Once every answer is in: what the record must fetch, by home.
  std::map<PartitionId, NearFetch> Fetches(const OrderKey& key, const Gathering& g) const;
  // Completes the candidates of `g` given in part from `whole` copies of
  // the same incarnations (a home's reply, or other answers).
  static void Fill(const std::vector<store::NearCandidate>& whole, Gathering& g);
  // Decides the gathered record `it` holds and forgets its gathering.
  Status DecideGathered(std::map<OrderKey, Gathering>::iterator it, Outbox* out);
  // Decides `r` on the gathered candidates (none: settled before the near
  // tier) and sends its verdict, outcomes and touches.
  Status Decide(RoutedRecord r, const std::vector<PartitionId>& probed,
                std::optional<std::vector<store::NearCandidate>> candidates, Outbox* out);
  Status Probe(RoutedRecord r, Outbox* out);
  // The near owners a record probes (or probed): its keys' owners.
  std::vector<PartitionId> ProbedOwners(const engine::PreparedRecord& r) const;

  SourceId self_;
  const engine::Decider& decider_;
  store::Shard& stores_;
  GatheredStores gathered_;
  const Ownership& near_owners_;
  const NearPlan& plan_;
  ProgressTracker progress_;
  KeyedSequencer<RoutedRecord> queue_;
  std::map<OrderKey, Gathering> gathering_;
  std::optional<OrderKey> promised_;
  std::optional<OrderKey> decided_;
};

}  // namespace pagesieve::routing
