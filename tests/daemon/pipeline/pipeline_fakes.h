#pragma once

// A recording sink and a scripted source: the pipeline driven without a
// broker and without files, with acknowledgements, failures, rebalances and
// ends on cue.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/clock.h"
#include "pipeline/sink.h"
#include "pipeline/stage.h"
#include "pipeline/source.h"

namespace pagesieve::pipeline::testing {

// Keeps every message sent and acknowledges them only when told, in any
// order; can refuse (a full queue) or fail deliveries.
class RecordingSink final : public Sink {
 public:
  Status Send(const OutputMessage& m, const std::shared_ptr<DeliveryCounter>& counter) override;
  // With auto-acknowledgement, every Poll() acknowledges all that is sent.
  void Poll(Duration) override;
  int64_t unacknowledged() const override { return static_cast<int64_t>(waiting_.size()); }
  // Counts the calls, and how much had been sent at the last one.
  void SendNow() override {
    ++send_nows;
    sent_at_last_send_now = sent.size();
  }

  // Acknowledges everything sent, oldest first, at consecutive offsets of
  // one log.
  void AckAll();
  // Acknowledges the newest unacknowledged message first, then the rest:
  // acknowledgements out of order, as several brokers give them.
  void AckNewestFirst();
  // Acknowledges only the newest unacknowledged message.
  void AckNewest();
  // The oldest unacknowledged message fails with `error`; `permanent`: as
  // a message too large for its topic, which no retry mends.
  void FailNext(const std::string& error, bool permanent = false);
  void set_refuse(bool refuse) { refuse_ = refuse; }
  void set_auto_ack(bool auto_ack) { auto_ack_ = auto_ack; }

  // Transactions: commits are recorded; the next one can be refused (as the
  // group coordinator refuses a zombie's offsets), which aborts it.
  bool transactional() const override { return transactional_; }
  Status CommitTransaction(const std::vector<std::pair<PartitionId, Offset>>& offsets) override;
  Status AbortTransaction() override;
  bool in_transaction() const override { return in_transaction_; }
  void set_transactional(bool transactional) { transactional_ = transactional; }
  void RefuseNextCommit() { refuse_commit_ = true; }
  // Every commit is refused as the group coordinator refuses the offsets
  // of a member it no longer counts, until told otherwise.
  void set_member_gone(bool gone) { member_gone_ = gone; }
  // The next commit meets the oldest unacknowledged message failing with
  // `error` while it waits for the acknowledgements (FailNext), and aborts.
  void FailDuringNextCommit(const std::string& error, bool permanent = false) {
    fail_during_commit_ = std::make_pair(error, permanent);
  }
  // Called as a commit begins waiting for the acknowledgements: a test
  // advances its clock there, for the time they take.
  std::function<void()> on_commit;

  std::vector<OutputMessage> sent;
  int polls = 0;
  int send_nows = 0;
  size_t sent_at_last_send_now = 0;
  // Each committed transaction's input offsets, and how many were aborted.
  std::vector<std::map<PartitionId, Offset>> commits;
  int aborts = 0;

 private:
  void Ack(const std::shared_ptr<DeliveryCounter>& counter);

  bool refuse_ = false;
  bool auto_ack_ = false;
  bool transactional_ = false;
  bool in_transaction_ = false;
  bool refuse_commit_ = false;
  bool member_gone_ = false;
  std::optional<std::pair<std::string, bool>> fail_during_commit_;
  std::deque<std::shared_ptr<DeliveryCounter>> waiting_;
  int64_t next_log_offset_ = 0;
};

// A stage that does what `inner` does: tests derive from it to change one
// part (GatedStage, lane_test's SpeakingStage).
class ForwardingStage : public Stage {
 public:
  explicit ForwardingStage(Stage& inner) : inner_(inner) {}

  engine::PreparePool::PrepareFnFactory PrepareFactory() const override {
    return inner_.PrepareFactory();
  }
  bool stateful() const override { return inner_.stateful(); }
  Status Process(engine::PreparedRecord record, const SourceRecord& input,
                 store::TierStores* stores, engine::VerdictCounts& counts,
                 std::vector<OutputMessage>* out) override {
    return inner_.Process(std::move(record), input, stores, counts, out);
  }
  OutputMessage DeadLetter(const SourceRecord& input, const Status& error,
                           engine::VerdictCounts& counts) override {
    return inner_.DeadLetter(input, error, counts);
  }
  Status LaneOpened(PartitionId partition, store::Shard* shard) override {
    return inner_.LaneOpened(partition, shard);
  }
  void LaneClosed(PartitionId partition) override { inner_.LaneClosed(partition); }
  Status AfterProcessing(PartitionId partition, const LaneRound& round,
                         std::vector<OutputMessage>* out) override {
    return inner_.AfterProcessing(partition, round, out);
  }
  void BeforeCommit(PartitionId partition, std::vector<OutputMessage>* out) override {
    inner_.BeforeCommit(partition, out);
  }
  bool HoldsOutput(PartitionId partition) const override { return inner_.HoldsOutput(partition); }
  void BeforeCheckpoint(PartitionId partition, store::Shard& shard) override {
    inner_.BeforeCheckpoint(partition, shard);
  }

 protected:
  Stage& inner_;
};

// The inner stage, with its pool work waiting until the test opens the
// gate: the test acts while batches are at the pool.
class GatedStage final : public ForwardingStage {
 public:
  using ForwardingStage::ForwardingStage;
  void Open();

  engine::PreparePool::PrepareFnFactory PrepareFactory() const override;

 private:
  void Pass() const;

  mutable std::mutex mu_;
  mutable std::condition_variable opened_;
  bool open_ = false;  // guarded by mu_
};

// A source whose partitions and records are set by the test: each Poll()
// first applies the rebalances queued with Assign/Revoke/Lose, then hands
// every queued record of a partition that is open and not paused to the
// pipeline. Records what it was told: commits, pauses, finished partitions.
class ScriptedSource final : public Source {
 public:
  // The partition is given to this process: opened at the next Poll(),
  // starting at `start` (default: where its shard's checkpoint is, else 0).
  void Assign(PartitionId p, std::optional<Offset> start = std::nullopt);
  void Revoke(PartitionId p) { events_.push_back({Event::kRevoke, p, {}}); }
  void Lose(PartitionId p) { events_.push_back({Event::kLose, p, {}}); }
  // A record for partition p at `offset` (its lane offset too).
  void Push(PartitionId p, Offset offset, std::string value, std::string key = "site");
  // Partition p's input ends before `end`.
  void SetEnd(PartitionId p, Offset end) { ends_[p] = end; }

  Status Poll(Duration wait, Lanes& lanes) override;
  // Wakeable like a Kafka source once asked: then a Poll with nothing to
  // hand over waits, in real time, for Wake() or for as long as it is told.
  void MakeWakeable() { wakeable_ = true; }
  bool Wakeable() const override { return wakeable_; }
  void Wake() override;
  void Commit(const std::vector<std::pair<PartitionId, Offset>>& offsets, bool sync) override;
  void Pause(const std::vector<PartitionId>& partitions) override;
  void Resume(const std::vector<PartitionId>& partitions) override;
  std::optional<Offset> EndOf(PartitionId p) const override;
  void Finished(PartitionId p) override { finished.insert(p); }
  bool Exhausted() const override;
  Status Rewind(PartitionId p, Offset offset) override;
  // From now on a rewind reads the partition's records again from there, as
  // a broker does (by default a test pushes what is to be read again).
  void ReplayOnRewind() { replay_on_rewind_ = true; }

  std::map<PartitionId, Offset> rewound;    // where each partition was last read again from
  std::map<PartitionId, Offset> committed;  // the last commit of each partition
  std::map<PartitionId, int> sync_commits;
  std::set<PartitionId> paused;
  std::set<PartitionId> finished;
  std::map<PartitionId, bool> revoke_drained;  // what Lanes::Revoke answered
  // What each Poll was told to wait, with what `pending_bytes` (set by the
  // test) said then.
  std::vector<std::pair<Duration, size_t>> waits;
  std::function<size_t()> pending_bytes;
  std::atomic<int> wakes{0};  // Wake() is called from the pool's threads

 private:
  struct Event {
    enum Kind { kAssign, kRevoke, kLose } kind;
    PartitionId partition;
    std::optional<Offset> start;
  };
  std::deque<Event> events_;
  std::map<PartitionId, std::deque<SourceRecord>> queued_;
  std::map<PartitionId, std::vector<SourceRecord>> pushed_;  // for a replay
  bool replay_on_rewind_ = false;
  bool wakeable_ = false;
  std::mutex wake_mu_;
  std::condition_variable woken_;
  bool wake_pending_ = false;  // guarded by wake_mu_
  std::map<PartitionId, Offset> ends_;
};

}  // namespace pagesieve::pipeline::testing
