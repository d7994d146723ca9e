#include "engine/prepare_pool.h"

#include <atomic>

#include "engine/record_preparer.h"

namespace pagesieve::engine {

// A submitted batch. Workers claim records one chunk at a time; whoever
// finishes the last chunk hands the batch to `done`.
struct PreparePool::Job {
  std::unique_ptr<PrepareBatch> batch;
  Done done;
  std::atomic<size_t> next{0};       // first unclaimed record
  std::atomic<size_t> remaining{0};  // records not yet prepared
};

namespace {

// Small enough to balance two workers over a batch of a few hundred pages,
// large enough that claiming is not the cost.
constexpr size_t kChunk = 8;

}  // namespace

PreparePool::PrepareFnFactory PreparePool::EventPreparers(const EngineOptions& options,
                                                          const Clock& clock) {
  return [&options, &clock]() -> PrepareFn {
    auto preparer = std::make_shared<RecordPreparer>(options, clock);
    return [preparer](const InputRecord& r) { return preparer->Prepare(r); };
  };
}

PreparePool::PreparePool(const EngineOptions& options, const Clock& clock, int threads)
    : PreparePool(EventPreparers(options, clock), clock, threads) {}

PreparePool::PreparePool(PrepareFnFactory factory, const Clock& clock, int threads)
    : factory_(std::move(factory)), clock_(clock) {
  if (threads < 1) threads = 1;
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this, i] { WorkerLoop(i); });
}

PreparePool::~PreparePool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void PreparePool::Submit(std::unique_ptr<PrepareBatch> batch, Done done) {
  auto job = std::make_shared<Job>();
  const size_t n = batch->size();
  batch->results.assign(n, Status::Aborted("not prepared"));
  batch->prepare_times.assign(n, std::chrono::nanoseconds(0));
  job->batch = std::move(batch);
  job->done = std::move(done);
  job->remaining = n;
  if (n == 0) {
    job->done(std::move(job->batch));
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.push_back(std::move(job));
    pending_records_ += n;
  }
  work_ready_.notify_all();
}

size_t PreparePool::pending_records() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pending_records_;
}

void PreparePool::WorkerLoop(int) {
  const PrepareFn prepare = factory_();
  for (;;) {
    std::shared_ptr<Job> job;
    size_t begin = 0;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and nothing left to do
      job = jobs_.front();
      begin = job->next.fetch_add(kChunk);
      // The last chunk claimed: later workers move on to the next job.
      if (begin + kChunk >= job->batch->size()) jobs_.pop_front();
    }
    PrepareBatch& batch = *job->batch;
    const size_t end = std::min(begin + kChunk, batch.size());
    // One clock read per record: each record's end is the next one's start.
    Clock::SteadyTime start = clock_.SteadyNow();
    for (size_t i = begin; i < end; ++i) {
      batch.results[i] = prepare(batch.records[i]);
      const Clock::SteadyTime done = clock_.SteadyNow();
      batch.prepare_times[i] = done - start;
      start = done;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      pending_records_ -= end - begin;
    }
    if (job->remaining.fetch_sub(end - begin) == end - begin) job->done(std::move(job->batch));
  }
}

}  // namespace pagesieve::engine
