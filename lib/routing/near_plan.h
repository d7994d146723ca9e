#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "routing/ownership.h"
#include "store/lsh_bands.h"
#include "store/shard_options.h"
#include "store/simhash_tables.h"

namespace pagesieve::routing {

// How a record's near keys are laid out: the SimHash tables and LSH bands
// the near owners' shards build from the same options, and the widest
// distance their tables are searched at. Immutable.
class NearPlan {
 public:
  // The layout and bands store::RocksShard derives from `options`.
  static StatusOr<NearPlan> ForShard(const store::ShardOptions& options);

  const store::NearLayout& layout() const { return layout_; }
  const store::LshBands* bands() const { return bands_ ? &*bands_ : nullptr; }
  int table_distance() const { return layout_.max_distance(); }

  // PlanNearProbes with this layout and these bands.
  std::vector<NearProbe> Probes(const Ownership& owners, std::string_view scope, uint64_t simhash,
                                std::string_view sketch) const {
    return PlanNearProbes(owners, scope, simhash, sketch, layout_, bands());
  }

  // The home of a near entry: the owner of its table-0 key, which keeps the
  // entry whole (docs/global-routing.md, "The home of a near entry"). Every
  // record with that SimHash probes it, so the home always hears the
  // outcome that creates the entry.
  PartitionId Home(const Ownership& owners, std::string_view scope, uint64_t simhash) const {
    return owners.OfTable(scope, 0, layout_.Prefix(0, simhash));
  }

 private:
  NearPlan(store::NearLayout layout, std::optional<store::LshBands> bands)
      : layout_(std::move(layout)), bands_(std::move(bands)) {}

  store::NearLayout layout_;
  std::optional<store::LshBands> bands_;
};

}  // namespace pagesieve::routing
