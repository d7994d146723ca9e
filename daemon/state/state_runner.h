#pragma once

#include "state/state_settings.h"

namespace pagesieve::state {

// `pagesieve state stats` and `pagesieve state lookup`. Each opens the
// shards under the state directory read-only, one after another, and
// returns the process exit code: 0 (a key not found included), 1 when a
// shard could not be read (the others are still reported), 2 for bad flags
// or configuration.
int RunStats(const StateFlags& flags, const StatsFlags& stats);
int RunLookup(const StateFlags& flags, const LookupFlags& lookup);

}  // namespace pagesieve::state
