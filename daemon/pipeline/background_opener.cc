#include "pipeline/background_opener.h"

#include <algorithm>
#include <cassert>

namespace pagesieve::pipeline {

BackgroundOpener::BackgroundOpener(OpenFn open, int threads) : open_(std::move(open)) {
  for (int i = 0; i < std::max(1, threads); ++i) workers_.emplace_back([this] { Work(); });
}

BackgroundOpener::~BackgroundOpener() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (auto& [p, job] : jobs_) job.stop.request_stop();
  }
  queued_.notify_all();
  for (std::thread& t : workers_) t.join();
  // Finished shards nobody took close here, with the jobs.
}

void BackgroundOpener::Begin(PartitionId p, Prologue first) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    assert(jobs_.count(p) == 0);
    jobs_[p].first = std::move(first);
    queue_.push_back(p);
  }
  queued_.notify_one();
}

void BackgroundOpener::Cancel(PartitionId p) {
  // Closed unlocked: the shard, or what the prologue holds.
  std::optional<StatusOr<std::unique_ptr<store::Shard>>> unwanted;
  Prologue unstarted;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(p);
    if (it == jobs_.end() || it->second.cancelled) return;
    Job& job = it->second;
    if (job.running) {
      // Its worker closes what it produces and then forgets the job.
      job.cancelled = true;
      job.stop.request_stop();
      return;
    }
    if (job.result) {
      unwanted = std::move(job.result);
      std::erase(finished_order_, p);
    } else {
      unstarted = std::move(job.first);
      std::erase(queue_, p);
    }
    jobs_.erase(it);
  }
}

std::vector<BackgroundOpener::Finished> BackgroundOpener::TakeFinished() {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Finished> out;
  for (PartitionId p : finished_order_) {
    auto it = jobs_.find(p);
    out.push_back({p, std::move(*it->second.result)});
    jobs_.erase(it);
  }
  finished_order_.clear();
  return out;
}

void BackgroundOpener::WaitForFinished(Duration wait) {
  std::unique_lock<std::mutex> lock(mu_);
  finished_.wait_for(lock, wait, [this] { return !finished_order_.empty(); });
}

bool BackgroundOpener::busy() const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::any_of(jobs_.begin(), jobs_.end(),
                     [](const auto& entry) { return !entry.second.cancelled; });
}

bool BackgroundOpener::opening(PartitionId p) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = jobs_.find(p);
  return it != jobs_.end() && !it->second.cancelled;
}

bool BackgroundOpener::Holds(PartitionId p) const {
  std::lock_guard<std::mutex> lock(mu_);
  return jobs_.count(p) > 0;
}

void BackgroundOpener::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (OpenNext(lock)) {
  }
}

bool BackgroundOpener::OpenNext(std::unique_lock<std::mutex>& lock) {
  queued_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
  if (stopping_) return false;
  const PartitionId p = queue_.front();
  queue_.pop_front();
  Job& job = jobs_.at(p);  // std::map: the reference outlives other jobs' changes
  job.running = true;
  const std::stop_token stop = job.stop.get_token();
  Prologue first = std::move(job.first);
  lock.unlock();
  StatusOr<std::unique_ptr<store::Shard>> result = RunJob(p, std::move(first), stop);
  lock.lock();
  job.running = false;
  if (!job.cancelled && !stopping_) {
    // Taken by the run loop's thread: the mutex orders the shard's writes
    // on this thread before its reads there.
    job.result = std::move(result);
    finished_order_.push_back(p);
    finished_.notify_all();
    return true;
  }
  // Not wanted: the shard closes before the job goes, so that Holds() stays
  // true while its RocksDB lock is held.
  lock.unlock();
  { const StatusOr<std::unique_ptr<store::Shard>> unwanted = std::move(result); }
  lock.lock();
  jobs_.erase(p);
  return !stopping_;
}

StatusOr<std::unique_ptr<store::Shard>> BackgroundOpener::RunJob(PartitionId p, Prologue first,
                                                                 const std::stop_token& stop) {
  if (first) {
    const Status done = first();
    first = nullptr;  // what it holds goes before the open
    if (!done.ok()) return done;
  }
  return open_(p, stop);
}

}  // namespace pagesieve::pipeline
