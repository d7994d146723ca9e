#pragma once

#include <map>
#include <optional>
#include <utility>
#include <string>

#include "common/status.h"
#include "routing/keyed_sequencer.h"
#include "routing/messages.h"
#include "routing/near_plan.h"
#include "routing/ownership.h"
#include "routing/progress_tracker.h"
#include "store/shard.h"

namespace pagesieve::routing {

// One partition of the near owners (docs/global-routing.md, "The stages"):
// it holds the near entries whose table or band rows it owns and answers
// the content owners' probes.
//
// Its shard indexes only the rows of an entry whose keys it owns
// (store::NearRows): each row of each entry is in one owner's memory. It is
// the home of the entries whose table-0 key it owns (NearPlan::Home): it
// keeps each of their incarnations whole and answers the content owners'
// fetches for them; its answers give whole only the entries it is the home
// of.
//
// It takes its probes in order, once every content owner has promised past
// them. A probe holds its keys until the record's outcome arrives (the
// record's entries are inserted or dropped), and a later probe that shares
// a key waits for it (KeyedSequencer): so each answer holds exactly the
// live entries of the records before it. A probe that shares no key with a
// record in flight is answered at once.
//
// Its unfinished work (probes waiting, parked or answered, early touches,
// the sources' promises) is held in its shard (held_state.h): a checkpoint
// keeps it, and Restore() takes it back after a restart.
//
// Not thread-safe: the partition's one thread.
class NearOwner {
 public:
  // Everything passed by reference must outlive the owner. `owners`: the
  // placement of the near owners' keys, this one's among them.
  NearOwner(SourceId self, store::Shard& stores, const Ownership& owners, const NearPlan& plan)
      : self_(std::move(self)), stores_(stores), owners_(owners), plan_(plan) {}

  // A content owner partition this owner hears from (every one of that stage).
  void Expect(const SourceId& source) {
    progress_.Expect(source);
    decided_.Expect(source);
  }
  void OnProbe(NearProbeRequest probe);
  // Takes back the work its shard holds, as of the shard's last checkpoint
  // (call once, before any message): a probe answered is not answered
  // again. Corruption when the shard holds what this build did not write.
  Status Restore();
  void OnProgress(const Progress& progress);
  // The record this owner answered is decided: insert its entries or not,
  // and let the probes behind it go. A repeat is ignored.
  Status OnOutcome(const NearOutcome& outcome);
  // A record matched an entry this owner holds a row of: slide its life. A
  // touch may overtake the entry's insert; it is then kept until the insert.
  Status OnTouch(const NearTouch& touch);
  // A content owner wants whole the incarnations this owner is the home
  // of: answered at the next Step once every one is inserted here (the
  // insert comes from another content owner, and may come later).
  void OnFetch(NearFetch fetch);

  // The earliest time this owner may still judge liveness at: its records
  // not yet finished, and those still to come (its frontier). Its shard
  // must not expire what is live then (store::Shard::HoldExpiry).
  EventTime ExpiryHold() const;

  // Answers every probe that may go. An error is the store failing.
  Status Step(Outbox* out);
  // Every source ended and nothing is left in flight here: nothing more
  // will come (a backfill's end).
  bool Finished() const;

  // Probes answered whose outcome has not come.
  size_t answered() const { return queue_.in_progress(); }
  // Probes not answered yet.
  size_t queued() const { return queue_.waiting(); }
  // Fetches waiting for an insert.
  size_t fetches_waiting() const { return fetches_.size(); }
  // Its frontier and queue, for logs and test failures.
  std::string DebugString() const;

 private:
  SourceId self_;
  store::Shard& stores_;
  const Ownership& owners_;
  const NearPlan& plan_;
  // Answers every parked probe that may go now.
  Status AnswerParked(Outbox* out);
  // Replies to every fetch whose incarnations are all here.
  Status ReplyToFetches(Outbox* out);
  // This owner keeps the entries of (scope, simhash) whole.
  bool IsHome(std::string_view scope, uint64_t simhash) const {
    return plan_.Home(owners_, scope, simhash) == self_.partition;
  }
  // Slides the entry's life here, and its whole incarnation at its home.
  Status Touch(std::string_view scope, uint64_t simhash, EventTime t);
  // The answer to `p` with `found`: whole (from the home entries) only the
  // candidates this owner is the home of.
  StatusOr<NearAnswer> MakeAnswer(const NearProbeRequest& p,
                                  std::vector<store::NearCandidate> found);
  // The probe's answer, or none while an entry it would find alive at an
  // earlier time is dead at its own and an earlier record may still touch
  // it (docs/global-routing.md, "Expiry").
  StatusOr<std::optional<NearAnswer>> Answer(const NearProbeRequest& p);
  // Sends a probe's answer; the probe keeps its keys until the outcome.
  void SendAnswer(NearAnswer answer, PartitionId reply_to, Outbox* out);

  ProgressTracker progress_;
  // The content owners' decided promises: every record below is decided.
  ProgressTracker decided_;
  KeyedSequencer<NearProbeRequest> queue_;
  // Released probes whose answer waits for the decided promise, by key.
  std::map<OrderKey, NearProbeRequest> parked_;
  // Touches that came before the entry's insert (they travel from another
  // content owner than the insert does): the latest time per (scope,
  // SimHash), applied once the entry is inserted.
  std::map<std::pair<std::string, uint64_t>, EventTime> early_touches_;
  // The rows a record's entry gets here, from its probe's keys, until its
  // outcome: the shard indexes only the rows this owner owns.
  std::map<OrderKey, store::NearRows> rows_of_;
  // Fetches not replied to yet, by their record.
  std::map<OrderKey, NearFetch> fetches_;
};

}  // namespace pagesieve::routing
