#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/types.h"
#include "engine/prepared_record.h"
#include "engine/verdict.h"
#include "routing/order_key.h"
#include "routing/ownership.h"
#include "routing/progress_tracker.h"
#include "store/origin.h"
#include "store/tier_stores.h"

namespace pagesieve::routing {

// What the routed stages send each other (docs/global-routing.md, "The
// stages"). Transport-agnostic: the Kafka stages will carry them on the
// internal topics; the simulation test hands them over in memory.

// A record between stages: route → URL owner → content owner.
struct RoutedRecord {
  OrderKey key;
  bool late = false;  // ordered at its source's floor (source_floor.h)
  engine::PreparedRecord record;
};

// A partition's promise to every partition of the stage it feeds: every
// record it sends from now on has a key at or above `promise`. A content
// owner also promises `decided`: every record below it is decided and its
// outcomes and touches are sent (a near owner waits for that before it
// calls an entry dead that an earlier record may still touch).
struct Progress {
  SourceId from;
  OrderKey promise;
  std::optional<OrderKey> decided;
};

// Content owner → near owner: the record's near keys that this owner
// answers for, and what it needs to look them up. The lookup is the widest
// the rules can ask for (the tables' distance, and the sketch whatever the
// site's method); the content owner narrows the answer to the record's rule.
struct NearProbeRequest {
  OrderKey key;
  PartitionId reply_to;  // the content owner's partition
  std::string scope;
  std::vector<NearKey> keys;
  uint64_t simhash = 0;
  std::string sketch;  // empty: none
  EventTime event_time;
  // The record's input position: lookups ignore entries of later records of
  // its input partition (store::OriginFilter, a replay into state ahead);
  // partition -1 when the rules ignore none (routed dedup on Kafka).
  PartitionId input_partition;
  Offset input_offset;
};

// Near owner → content owner: the live entries its share of the record's
// keys found, each with the record's distance to it. Only an entry's home
// (NearPlan::Home) answers with it whole; any other owner leaves out its
// origin's event id and URL and its sketch, which the content owner
// fetches from the home (NearFetch).
struct NearAnswer {
  OrderKey key;
  PartitionId from;
  std::vector<store::NearCandidate> candidates;
};

// An incarnation of a near entry a content owner wants whole.
struct NearWanted {
  uint64_t simhash = 0;
  store::OriginPosition at;  // its origin's: which incarnation

  friend bool operator==(const NearWanted&, const NearWanted&) = default;
};

// Content owner → the home of entries the record's answers found
// elsewhere: their origins and sketches, which only the home keeps whole.
struct NearFetch {
  OrderKey key;          // the record that found them
  PartitionId reply_to;  // the content owner's partition
  std::string scope;
  std::vector<NearWanted> wanted;
};

// Home → content owner: the incarnations a fetch wanted, whole (SimHash,
// origin, last_seen and sketch).
struct NearFetchReply {
  OrderKey key;
  PartitionId from;
  std::vector<store::NearCandidate> entries;
};

// Content owner → every near owner the record probed: the record ended
// unique (its entries are inserted) or not (they never exist).
struct NearOutcome {
  OrderKey key;
  bool insert = false;
  std::string scope;
  uint64_t simhash = 0;
  std::string sketch;
  store::Origin origin;
};

// Content owner → every owner of a matched entry's rows: slide its life.
struct NearTouch {
  OrderKey key;  // the record that matched it
  std::string scope;
  uint64_t simhash = 0;
  EventTime time;
};

// What one step of a stage partition sends. Each addressed message goes to
// one partition of the next (or, for answers, the previous) stage;
// `progress` goes to every partition of the stage this one feeds.
struct Outbox {
  std::vector<engine::Verdict> verdicts;
  std::vector<std::pair<PartitionId, RoutedRecord>> records;
  std::vector<std::pair<PartitionId, NearProbeRequest>> probes;
  std::vector<std::pair<PartitionId, NearAnswer>> answers;
  std::vector<std::pair<PartitionId, NearOutcome>> outcomes;
  std::vector<std::pair<PartitionId, NearTouch>> touches;
  std::vector<std::pair<PartitionId, NearFetch>> fetches;
  std::vector<std::pair<PartitionId, NearFetchReply>> fetch_replies;
  std::vector<Progress> progress;
};

}  // namespace pagesieve::routing
