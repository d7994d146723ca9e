#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "common/status_or.h"
#include "run/kafka_stage.h"

namespace pagesieve::run {

// The stages of one pagesieve run process that feed each other (the
// re-keying stage and the deciding one, docs/rekey.md; routed dedup's
// route, URL, content and near stages, docs/global-routing.md), each a run
// loop with its own consumer group and thread. The caller's thread
// supervises: a stop request stops every stage, a failure of one stops the
// others, and in a backfill each stage learns when the one before it is
// done (RunOptions::upstream_done) and the chain ends when the last is.
class StageChain {
 public:
  // `stop_requested` is the process's (SIGTERM). Stages are added in the
  // order records flow; each one's RunOptions::upstream_done must point at
  // upstream_done(i - 1) of the one before it, when it has one.
  explicit StageChain(const std::atomic<bool>& stop_requested) : stop_requested_(stop_requested) {}

  // The flag stage `i` sets once its backfill is complete.
  const std::atomic<bool>* upstream_done(size_t i) const { return &links_.at(i)->done; }
  // Makes room for the next stage's flags before it is constructed: its
  // stop flag is what its KafkaStage is given.
  const std::atomic<bool>& NextStopFlag();
  void Add(std::unique_ptr<KafkaStage> stage, const char* name);

  // Starts every stage in order (the first creates the topics the next
  // read), runs them to the end, and returns each one's result, in order.
  // A failure to start returns at once, naming the stage.
  StatusOr<std::vector<StatusOr<RunSummary>>> Run();

 private:
  struct Link {
    std::unique_ptr<KafkaStage> stage;
    const char* name = "";
    std::atomic<bool> stop{false};
    std::atomic<bool> done{false};      // backfill complete
    std::atomic<bool> finished{false};  // Run() returned
    StatusOr<RunSummary> result = Status::Aborted("not run");
  };

  const std::atomic<bool>& stop_requested_;
  std::vector<std::unique_ptr<Link>> links_;
};

}  // namespace pagesieve::run
