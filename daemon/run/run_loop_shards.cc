// Shards and the changelog topic: the topic created at start, and shards of
// partitions this instance no longer owns deleted after a grace period
// (docs/changelog.md).
#include <spdlog/spdlog.h>

#include "common/duration.h"
#include "kafka/topic_admin.h"
#include "run/run_loop.h"
#include "store/shard_inspector.h"

namespace pagesieve::run {
namespace {

constexpr Duration kSweepInterval = std::chrono::seconds(10);

}  // namespace

Status RunLoop::EnsureChangelogTopic(int32_t existing_partitions) {
  const std::string& topic = kafka_.changelog.topic;
  if (existing_partitions == input_partitions_) return Status::Ok();
  if (existing_partitions != 0) {
    return Status::FailedPrecondition(
        "changelog topic '" + topic + "' has " + std::to_string(existing_partitions) +
        " partitions, the input topic '" + kafka_.input_topic + "' " +
        std::to_string(input_partitions_) +
        ": the changelog needs one partition per input partition (changelog.topic)");
  }
  // Compacted: the latest record of each key is the state; tombstones of
  // expired entries remove them for good.
  spdlog::info("creating changelog topic {} ({} partitions, cleanup.policy = compact)", topic,
               input_partitions_);
  const kafka::TopicAdmin admin(kafka_.bootstrap_servers, kafka_.common, kafka_.startup_timeout);
  return admin.Create({topic}, input_partitions_, {{"cleanup.policy", "compact"}})
      .WithContext("changelog.topic");
}

Status RunLoop::EnsureRepartitionTopic(int32_t existing_partitions) {
  if (existing_partitions > 0) return Status::Ok();  // any count: keys spread over what there is
  const int32_t partitions = kafka_.rekey.partitions > 0 ? kafka_.rekey.partitions : input_partitions_;
  spdlog::info("creating repartition topic {} ({} partitions, retention {})", kafka_.rekey.topic,
               partitions, FormatDuration(kafka_.rekey.retention));
  const kafka::TopicAdmin admin(kafka_.bootstrap_servers, kafka_.common, kafka_.startup_timeout);
  return admin
      .Create({kafka_.rekey.topic}, partitions,
              {{"cleanup.policy", "delete"},
               {"retention.ms", std::to_string(kafka_.rekey.retention.count())}})
      .WithContext("input.repartition_topic");
}

Status RunLoop::NoteUnownedShards() {
  StatusOr<std::vector<store::ShardDirEntry>> shards = store::FindShards(state_options_.dir);
  if (!shards.ok()) return Status::Ok();  // no state directory yet: nothing to note
  const std::string prefix = kafka_.input_topic + "-";
  for (const store::ShardDirEntry& shard : *shards) {
    if (shard.name.rfind(prefix, 0) != 0) continue;
    const std::string number = shard.name.substr(prefix.size());
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos ||
        number.size() > 9) {
      continue;
    }
    // Not assigned yet: if the group gives it back in time, it is kept.
    unowned_since_[PartitionId(std::stoi(number))] = clock_.SteadyNow();
  }
  return Status::Ok();
}

void RunLoop::RemoveExpiredShards() {
  if (!restorer_) return;  // without a changelog a shard is the only copy of its state
  const auto now = clock_.SteadyNow();
  if (now - last_shard_sweep_ < kSweepInterval && kafka_.changelog.revoked_shard_grace.count() > 0) {
    return;
  }
  last_shard_sweep_ = now;
  for (auto it = unowned_since_.begin(); it != unowned_since_.end();) {
    const PartitionId p = it->first;
    const bool owned = assigned_.count(p) > 0 || restorer_->restoring(p) || backfill_done_.count(p);
    if (owned) {
      it = unowned_since_.erase(it);
      continue;
    }
    if (now - it->second < kafka_.changelog.revoked_shard_grace) {
      ++it;
      continue;
    }
    const Status s = state_->RemoveShard(kafka_.input_topic, p);
    if (s.ok()) {
      spdlog::info("deleted shard {}-{}: not assigned here for {} (changelog.revoked_shard_grace)",
                   kafka_.input_topic, p.value(),
                   FormatDuration(kafka_.changelog.revoked_shard_grace));
    } else {
      spdlog::warn("{}", s.ToString());
    }
    it = unowned_since_.erase(it);
  }
}

}  // namespace pagesieve::run
