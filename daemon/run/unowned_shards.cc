#include "run/unowned_shards.h"

#include <spdlog/spdlog.h>

#include "common/duration.h"
#include "store/shard_inspector.h"

namespace pagesieve::run {
namespace {

constexpr Duration kSweepInterval = std::chrono::seconds(10);

}  // namespace

void UnownedShards::NoteExisting() {
  StatusOr<std::vector<store::ShardDirEntry>> shards = store::FindShards(state_.options().dir);
  if (!shards.ok()) return;  // no state directory yet: nothing to note
  const std::string prefix = input_topic_ + "-";
  for (const store::ShardDirEntry& shard : *shards) {
    if (shard.name.rfind(prefix, 0) != 0) continue;
    const std::string number = shard.name.substr(prefix.size());
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos ||
        number.size() > 9) {
      continue;
    }
    // Not assigned yet: if the group gives it back in time, it is kept.
    NotOwned(PartitionId(std::stoi(number)));
  }
}

void UnownedShards::RemoveExpired(const std::function<bool(PartitionId)>& owned) {
  const auto now = clock_.SteadyNow();
  if (now - last_sweep_ < kSweepInterval && grace_.count() > 0) return;
  last_sweep_ = now;
  for (auto it = since_.begin(); it != since_.end();) {
    const PartitionId p = it->first;
    if (owned(p)) {
      it = since_.erase(it);
      continue;
    }
    if (now - it->second < grace_) {
      ++it;
      continue;
    }
    const Status s = state_.RemoveShard(input_topic_, p);
    if (s.ok()) {
      spdlog::info("deleted shard {}-{}: not assigned here for {} (changelog.revoked_shard_grace)",
                   input_topic_, p.value(), FormatDuration(grace_));
    } else {
      spdlog::warn("{}", s.ToString());
    }
    it = since_.erase(it);
  }
}

}  // namespace pagesieve::run
