#pragma once

#include <string>
#include <vector>

#include "state/report_format.h"
#include "store/shard_inspector.h"

namespace pagesieve::state {

// One shard's figures for `state stats`.
struct NamedReport {
  std::string name;
  store::ShardReport report;
};

// One block per shard, for people.
std::string StatsText(const std::vector<NamedReport>& shards);
// {"state_dir": ..., "shards": [...]}, for machines.
Json StatsJson(const std::string& state_dir, const std::vector<NamedReport>& shards);

}  // namespace pagesieve::state
