#pragma once

#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "config/config.h"
#include "engine/decider.h"
#include "engine/fetched_event.h"
#include "engine/near_rule.h"
#include "engine/scope.h"
#include "fingerprint/fingerprinter.h"
#include "store/shard_options.h"

namespace pagesieve::engine {

// Everything the engine needs to know, read from one Config.
struct EngineOptions {
  EventFieldNames fields;
  std::vector<int> accept_status = {200, 203};
  Duration max_future = std::chrono::days(1);  // 0: no check
  ScopeKey scope_key = ScopeKey::kRegisteredDomain;
  NearRule near;  // near.max_distance, near.jaccard, near.method
  std::vector<NearOverride> near_overrides;
  DeciderOptions decider;
  fingerprint::FingerprintOptions fingerprint;
  // near_max_distance and near_lsh_threshold cover every override;
  // fingerprint_version is set.
  store::ShardOptions shard;
};

// Reads accept_status, event.*, scope.key, url.on_revisit, near.method,
// near.jaccard, near.overrides,
// and, through their modules, the fingerprint and shard options. Errors name
// the key at fault.
StatusOr<EngineOptions> EngineOptionsFromConfig(const Config& config);

}  // namespace pagesieve::engine
