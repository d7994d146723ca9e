#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <optional>

#include "common/clock.h"
#include "common/status_or.h"
#include "kafka/consumer.h"
#include "kafka/kafka_options.h"
#include "pipeline/source.h"
#include "run/assignment.h"
#include "run/backfill_ends.h"
#include "run/run_metrics.h"
#include "run/run_options.h"

namespace pagesieve::run {

// The Source of pagesieve run: the input topic, read as a member of the
// consumer group. Partitions come and go with rebalances (Assignment); a
// backfill stops each partition at its end (BackfillEnds). Records are
// copied out of librdkafka's messages (pipeline::SourceRecord owns them).
//
// Not thread-safe: the pipeline's thread only, which is also where librdkafka
// calls the rebalance callback (from within Poll).
class KafkaSource final : public pipeline::Source, private kafka::RebalanceListener {
 public:
  // A member of kafka.group_id over `kafka.input_topic`. `upstream_done`
  // (may be null) is the re-keying stage's "published everything" for the
  // stage reading the repartition topic, which learns its backfill ends then.
  static StatusOr<std::unique_ptr<KafkaSource>> Create(const kafka::KafkaOptions& kafka,
                                                       const RunOptions& run, RunMetrics& metrics,
                                                       const Clock& clock);
  ~KafkaSource() override;

  // The consumer, for start-up checks (metadata) before Start().
  kafka::Consumer& consumer() { return *consumer_; }

  // Sets up assignment with its restores (null without a changelog), its
  // shard opener (null without state) and the backfill ends (unless they
  // come later), then subscribes.
  Status Start(int32_t input_partitions, ChangelogRestorer* restorer,
               pipeline::BackgroundOpener* opener, UnownedShards* unowned, bool ends_come_later);
  // Leaves the group; revocations from here on reach `lanes`.
  void Close(pipeline::Lanes& lanes);

  Status Poll(Duration wait, pipeline::Lanes& lanes) override;
  bool Wakeable() const override { return true; }
  void Wake() override { consumer_->Wake(); }
  void Commit(const std::vector<std::pair<PartitionId, Offset>>& offsets, bool sync) override;
  Status Rewind(PartitionId partition, Offset offset) override {
    ends_seen_.erase(partition);
    return consumer_->Seek(partition, offset);
  }
  void Pause(const std::vector<PartitionId>& partitions) override { consumer_->Pause(partitions); }
  void Resume(const std::vector<PartitionId>& partitions) override {
    consumer_->Resume(partitions);
  }
  std::optional<Offset> EndOf(PartitionId partition) const override {
    return ends_.EndOf(partition);
  }
  void Finished(PartitionId partition) override;
  bool Exhausted() const override { return ends_.Complete(); }

  // Partitions this instance owns or is restoring or opening (shard
  // clean-up).
  bool Owns(PartitionId partition, const pipeline::Lanes& lanes) const;
  bool restoring() const { return assignment_ && assignment_->restoring(); }
  // The backfill's ends are known and `upstream_done` says so.
  int32_t input_partitions() const { return input_partitions_; }

 private:
  KafkaSource(const kafka::KafkaOptions& kafka, const RunOptions& run, RunMetrics& metrics,
              const Clock& clock)
      : kafka_(kafka), run_(run), metrics_(metrics), clock_(clock), ends_(run.until) {}

  void OnAssigned(const std::vector<PartitionId>& partitions) override;
  void OnRevoked(const std::vector<PartitionId>& partitions) override;
  void OnLost(const std::vector<PartitionId>& partitions) override;
  // One record into its lane, unless past the partition's end.
  void Deliver(const kafka::Consumed& m, pipeline::Lanes& lanes);
  // A backfill run by several members of the group: the partitions the
  // others read to their ends, from the group's committed offsets.
  void LearnEndsReachedElsewhere(const pipeline::Lanes& lanes);

  const kafka::KafkaOptions& kafka_;
  const RunOptions& run_;
  RunMetrics& metrics_;
  const Clock& clock_;
  std::unique_ptr<kafka::Consumer> consumer_;
  std::optional<Assignment> assignment_;
  BackfillEnds ends_;
  int32_t input_partitions_ = 0;
  pipeline::Lanes* lanes_ = nullptr;  // what rebalances act on: set by Poll and Close
  // The last end of each partition reported since it was assigned: an end
  // reached before the backfill's ends were known is not reported again.
  std::map<PartitionId, Offset> ends_seen_;
  Clock::SteadyTime next_group_check_{};
};

}  // namespace pagesieve::run
