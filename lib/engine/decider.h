#pragma once

#include <optional>

#include "common/status_or.h"
#include "engine/prepared_record.h"
#include "engine/verdict.h"
#include "store/shard_options.h"
#include "store/tier_stores.h"

namespace pagesieve::engine {

// What happens when a URL comes back: kCheckContent treats a revisit whose
// content digest changed as a new page (it goes on to the content tiers);
// kDuplicate calls every revisit within url.ttl a URL duplicate.
enum class RevisitPolicy { kCheckContent, kDuplicate };

struct DeciderOptions {
  store::UrlMode url_mode = store::UrlMode::kExact;
  RevisitPolicy on_revisit = RevisitPolicy::kCheckContent;
  // The distance the shard's SimHash tables serve (the widest of any site):
  // with near.method = both, every candidate within it is judged by Jaccard.
  int near_table_distance = 3;
  // Lookups ignore entries created by later offsets of the record's own
  // input partition: a replay into state that is ahead of its input
  // (store::OriginFilter). Routed dedup turns it off: it decides in
  // event-time order, where a later offset of a partition may come first,
  // and its owners' state is never ahead of their input.
  bool ignore_later_offsets = true;
};

// The dedup rules (docs/engine.md), applied to one prepared record against
// its partition's stores: url, then exact, then near (near_judge.h says how
// a candidate is judged); otherwise unique and inserted. A skipped record
// touches nothing, not even the watermark.
//
// Stateless apart from the stores it is given; one partition's records must
// be decided in input order, by one thread at a time. An error is never the
// record's fault (it is storage failing): the caller stops the partition.
class Decider {
 public:
  explicit Decider(DeciderOptions options) : options_(options) {}

  StatusOr<Decision> Decide(const PreparedRecord& record, store::TierStores& stores) const;

  // Decide() in two halves, for routed dedup (docs/global-routing.md), where
  // the URL tier runs at the URL's owner and the rest at the content's: the
  // URL tier alone (a decision when it settles the record), then the exact
  // and near tiers and a unique record's inserts. Decide() is exactly
  // DecideUrl() and, unless it settled, DecideContent() on the same stores.
  // Neither takes a skipped record.
  StatusOr<std::optional<Decision>> DecideUrl(const PreparedRecord& record,
                                              store::TierStores& stores) const;
  StatusOr<Decision> DecideContent(const PreparedRecord& record, store::TierStores& stores) const;

  // What the record's lookups ignore (DeciderOptions::ignore_later_offsets).
  store::OriginFilter ReplayFilter(const PreparedRecord& record) const {
    if (!options_.ignore_later_offsets) return store::OriginFilter{};
    return store::OriginFilter{record.partition, record.offset};
  }

 private:
  // Each tier returns a decision when it settles the record.
  using Settled = std::optional<Decision>;
  StatusOr<Settled> UrlTier(const PreparedRecord& record, store::TierStores& stores) const;
  StatusOr<Settled> ExactTier(const PreparedRecord& record, store::TierStores& stores) const;
  StatusOr<Settled> NearTier(const PreparedRecord& record, store::TierStores& stores) const;

  DeciderOptions options_;
};

}  // namespace pagesieve::engine
