#pragma once

#include <compare>
#include <map>
#include <optional>
#include <string>

#include "common/types.h"
#include "routing/order_key.h"

namespace pagesieve::routing {

// A partition that feeds a routed stage: an input partition for the URL
// owners, a URL owner's partition for the content owners, and so on.
struct SourceId {
  std::string topic;
  PartitionId partition;

  friend std::strong_ordering operator<=>(const SourceId&, const SourceId&) = default;
  friend bool operator==(const SourceId&, const SourceId&) = default;
};

// What a stage partition knows of its sources' promises
// (docs/global-routing.md, "Progress"): a record is ready, every record
// before it having arrived, once its key is below every expected source's
// promise (SourceFloor::Promise, carried by the progress messages).
//
// Not thread-safe: used by the stage partition's one thread.
class ProgressTracker {
 public:
  // A source this stage must hear from before anything is ready (from the
  // source topic's metadata). Expecting one already known changes nothing.
  void Expect(const SourceId& source);
  // A source's promise. Promises only rise: a lower one (a progress message
  // replayed after a restart) changes nothing. An unexpected source becomes
  // expected.
  // Whether it rose.
  bool Promise(const SourceId& source, const OrderKey& promise);
  // What `source` has promised; none when nothing.
  std::optional<OrderKey> PromiseOf(const SourceId& source) const;

  // The lowest promise of the expected sources; none while one of them has
  // not promised anything (or none is expected).
  std::optional<OrderKey> Frontier() const;
  // Whether every record ordered before `key` has arrived: key < Frontier().
  bool Ready(const OrderKey& key) const;

 private:
  // nullopt: expected, nothing promised yet.
  std::map<SourceId, std::optional<OrderKey>> promises_;
};

}  // namespace pagesieve::routing
