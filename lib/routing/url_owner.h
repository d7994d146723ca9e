#pragma once

#include <optional>

#include "common/status.h"
#include "engine/decider.h"
#include "routing/keyed_sequencer.h"
#include "routing/messages.h"
#include "routing/ownership.h"
#include "routing/progress_tracker.h"
#include "store/shard.h"

namespace pagesieve::routing {

// One partition of the URL owners (docs/global-routing.md, "The stages"):
// it holds the URL entries whose digests it owns, takes its records in
// order once every input partition has promised past them, and applies the
// URL tier (engine::Decider::DecideUrl). A URL duplicate is decided here;
// any other record goes on to the owner of its content digest. The URL
// tier's write does not depend on the verdict, so this stage never waits
// for another.
//
// Its unfinished work (records waiting, the sources' promises) is held in
// its shard (held_state.h): a checkpoint keeps it, and Restore() takes it
// back after a restart.
//
// Not thread-safe: the partition's one thread.
class UrlOwner {
 public:
  // `decider`, `stores` and `content_owners` must outlive the owner.
  UrlOwner(SourceId self, const engine::Decider& decider, store::Shard& stores,
           const Ownership& content_owners)
      : self_(std::move(self)),
        decider_(decider),
        stores_(stores),
        content_owners_(content_owners) {}

  // An input partition this owner hears from (every one of the input topic).
  void Expect(const SourceId& source) { progress_.Expect(source); }
  void OnRecord(RoutedRecord record);
  void OnProgress(const Progress& progress);
  // Takes back the work its shard holds, as of the shard's last checkpoint
  // (call once, before any message). Corruption when the shard holds what
  // this build did not write.
  Status Restore();

  // The earliest time this owner may still judge liveness at: its records
  // not yet finished, and those still to come (its frontier). Its shard
  // must not expire what is live then (store::Shard::HoldExpiry).
  EventTime ExpiryHold() const;

  // Decides or forwards every record that is ready, then promises the
  // content owners what it has passed. An error is the store failing: the
  // partition stops.
  Status Step(Outbox* out);
  // Every source ended and nothing is left in flight here: nothing more
  // will come (a backfill's end).
  bool Finished() const;

 private:
  SourceId self_;
  const engine::Decider& decider_;
  store::Shard& stores_;
  const Ownership& content_owners_;
  ProgressTracker progress_;
  KeyedSequencer<RoutedRecord> queue_;
  std::optional<OrderKey> promised_;
};

}  // namespace pagesieve::routing
