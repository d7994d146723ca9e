#include "routing/near_plan.h"

namespace pagesieve::routing {

StatusOr<NearPlan> NearPlan::ForShard(const store::ShardOptions& options) {
  PS_ASSIGN_OR_RETURN(store::NearLayout layout,
                      store::NearLayout::Create(options.near_max_distance, options.near_tables));
  std::optional<store::LshBands> bands;
  if (options.minhash_slots > 0) {
    PS_ASSIGN_OR_RETURN(bands, store::LshBands::Create(options.minhash_slots, options.minhash_bits,
                                                       options.near_lsh_threshold));
  }
  return NearPlan(std::move(layout), std::move(bands));
}

}  // namespace pagesieve::routing
