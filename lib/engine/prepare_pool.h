#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/clock.h"
#include "common/status_or.h"
#include "engine/engine_options.h"
#include "engine/input_record.h"
#include "engine/prepared_record.h"

namespace pagesieve::engine {

// A batch of input records to prepare. Its records are views into bytes
// that `owner` keeps alive, so the batch stays valid wherever it goes: a lane
// closed (revoked, shut down) while the pool still works on its batch must not
// pull the bytes from under a worker.
struct PrepareBatch {
  std::vector<InputRecord> records;
  std::shared_ptr<const void> owner;  // what `records` point into
  std::vector<StatusOr<PreparedRecord>> results;  // filled by the pool, same order
  // How long each record took to prepare (steady clock), same order: what
  // the daemon's fingerprinting histogram observes.
  std::vector<std::chrono::nanoseconds> prepare_times;

  size_t size() const { return records.size(); }
};

// Worker threads that run RecordPreparer::Prepare over batches, spreading
// the records of each batch over all workers. Fingerprinting is where the CPU
// goes, so this is what lets one process use every core while each
// partition's decisions stay sequential.
//
// Thread-safe: any thread may Submit. `done` runs on a worker thread once
// every record of the batch is prepared; it must be quick (hand the batch
// over, do not process it there).
class PreparePool {
 public:
  using Done = std::function<void(std::unique_ptr<PrepareBatch>)>;
  // What a worker runs on each record; one per worker, called only on its
  // thread (it may keep buffers).
  using PrepareFn = std::function<StatusOr<PreparedRecord>(const InputRecord&)>;
  using PrepareFnFactory = std::function<PrepareFn()>;

  // One RecordPreparer per worker (it holds the fingerprinter's buffers).
  // `options` and `clock` must outlive the functions it makes.
  static PrepareFnFactory EventPreparers(const EngineOptions& options, const Clock& clock);

  // Workers that run RecordPreparer::Prepare. `options` and `clock` must
  // outlive the pool.
  PreparePool(const EngineOptions& options, const Clock& clock, int threads);
  // Workers that run what `factory` makes (the stateful stage of re-keying
  // decodes repartition records instead). `clock` must outlive the pool.
  PreparePool(PrepareFnFactory factory, const Clock& clock, int threads);
  ~PreparePool();  // finishes queued batches, then joins

  PreparePool(const PreparePool&) = delete;
  PreparePool& operator=(const PreparePool&) = delete;

  void Submit(std::unique_ptr<PrepareBatch> batch, Done done);

  int threads() const { return static_cast<int>(workers_.size()); }
  // Records queued or being prepared: what backpressure watches.
  size_t pending_records() const;

 private:
  struct Job;
  void WorkerLoop(int index);

  const PrepareFnFactory factory_;
  const Clock& clock_;
  mutable std::mutex mu_;
  std::condition_variable work_ready_;
  std::deque<std::shared_ptr<Job>> jobs_;  // guarded by mu_
  size_t pending_records_ = 0;             // guarded by mu_
  bool stopping_ = false;                  // guarded by mu_
  std::vector<std::thread> workers_;
};

}  // namespace pagesieve::engine
