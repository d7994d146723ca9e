#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "store/shard.h"

namespace pagesieve::pipeline {

// Opens the shards of newly assigned partitions on worker threads, so the
// thread that owns the Kafka consumer keeps polling while they open
// (docs/daemon.md, "A partition's life"). Opening a shard reads every live
// SimHash (and, after a restore, every URL) entry to rebuild its in-memory
// indexes, about 17 s per 10 M entries: done inside the consumer's rebalance
// callback, several of them kept the member from the group's next rebalance
// for longer than max.poll.interval.ms, and the group dropped it.
//
// The run loop Begin()s an open, keeps polling, and takes the shards that
// are ready with TakeFinished(). An open that is no longer wanted (its
// partition revoked or lost) is Cancel()ed: its stop is requested, which ends
// the index rebuild early, and whatever it produced is closed on the worker,
// releasing the shard's RocksDB lock. Until then Holds() is true, and the
// partition's shard may not be opened again.
//
// Thread-safe. The open function runs on the workers, one partition at a
// time each; it must be safe to call from several threads at once
// (StateEnv::OpenShard is). The destructor stops every open and waits for
// the workers.
class BackgroundOpener {
 public:
  using OpenFn =
      std::function<StatusOr<std::unique_ptr<store::Shard>>(PartitionId, std::stop_token)>;

  // Work that must end before a shard opens, on the same worker: the end of
  // a changelog restore, whose flush and sync take seconds for a large
  // shard. It closes what it opened, so the shard's lock is free for the
  // open. An error is the open's result.
  using Prologue = std::function<Status()>;

  // `threads` workers (at least one): opens are CPU-bound and each holds its
  // shard's indexes in memory as they grow, so a few are enough.
  BackgroundOpener(OpenFn open, int threads);
  ~BackgroundOpener();
  BackgroundOpener(const BackgroundOpener&) = delete;
  BackgroundOpener& operator=(const BackgroundOpener&) = delete;

  // Queues the open of `partition`, which must not be Held(), after `first`
  // when given. A cancelled job's `first` may never run; it is destroyed
  // then, on the thread that cancels if it had not started.
  void Begin(PartitionId partition, Prologue first = nullptr);
  // The open of `partition` is not wanted any more: dropped if still queued,
  // stopped if under way (closed on its worker when it ends), closed now if
  // it finished and was not taken yet. Nothing when there is none.
  void Cancel(PartitionId partition);

  struct Finished {
    PartitionId partition;
    StatusOr<std::unique_ptr<store::Shard>> shard;  // the open shard, or why not
  };
  // The opens that ended since the last call, in the order they ended, each
  // once; cancelled ones are never reported.
  std::vector<Finished> TakeFinished();
  // Returns once an open ended or `wait` passed.
  void WaitForFinished(Duration wait);

  // Wanted opens not taken yet: queued, under way or finished.
  bool busy() const;
  bool opening(PartitionId partition) const;
  // An open of `partition` is queued, under way or finished but not taken,
  // wanted or cancelled: its shard's lock may be held.
  bool Holds(PartitionId partition) const;

 private:
  struct Job {
    bool running = false;
    bool cancelled = false;
    std::stop_source stop;
    Prologue first;  // until its worker takes it
    std::optional<StatusOr<std::unique_ptr<store::Shard>>> result;  // once finished
  };

  void Work();
  // Runs the open of the next queued partition; false when stopping.
  bool OpenNext(std::unique_lock<std::mutex>& lock);
  StatusOr<std::unique_ptr<store::Shard>> RunJob(PartitionId partition, Prologue first,
                                                 const std::stop_token& stop);

  const OpenFn open_;
  mutable std::mutex mu_;
  std::condition_variable queued_;           // for the workers: a job or stopping_
  std::condition_variable finished_;         // for WaitForFinished: finished_order_
  std::map<PartitionId, Job> jobs_;          // guarded by mu_
  std::deque<PartitionId> queue_;            // guarded by mu_: jobs not started
  std::vector<PartitionId> finished_order_;  // guarded by mu_: results to take
  bool stopping_ = false;                    // guarded by mu_
  std::vector<std::thread> workers_;         // last: started once the rest is
};

}  // namespace pagesieve::pipeline
