#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "common/types.h"
#include "pipeline/output_message.h"

namespace pagesieve::pipeline {

// Acknowledgements of one lane's output messages. The sink counts
// `unacknowledged` down as acknowledgements arrive; a failed delivery is
// remembered, and the lane never checkpoints past it. Only touched on the
// pipeline's thread.
struct DeliveryCounter {
  int64_t unacknowledged = 0;
  int64_t failures = 0;
  // Failures no retry can mend (a message larger than its topic takes):
  // exactly once, these stop the stage like any failure at least once,
  // where other failures abort the transaction and decide again.
  int64_t permanent_failures = 0;
  std::string first_error;
  int64_t highest_offset = -1;  // of the acknowledged messages, where the sink knows it
};

// Where output goes: a Kafka producer, files, or a recording sink in tests.
// A message is acknowledged once the sink has made it as durable as it can
// (Kafka: the broker has it; files: written to the operating system), and a
// lane checkpoints only behind acknowledged output: that is the rule that
// loses nothing (docs/architecture.md).
//
// Used from the pipeline's thread only.
class Sink {
 public:
  virtual ~Sink() = default;

  // Queues `message`; its acknowledgement (or failure) is reported later
  // through `counter`, which the sink keeps alive until then. The counter's
  // `unacknowledged` is incremented here. kResourceExhausted means the queue
  // is full: nothing was queued, try again after acknowledgements arrive.
  // Any other error is permanent.
  virtual Status Send(const OutputMessage& message,
                      const std::shared_ptr<DeliveryCounter>& counter) = 0;

  // Delivers the acknowledgements that have arrived, waiting up to `wait`
  // for some when none has.
  virtual void Poll(Duration wait) = 0;

  // Sends what is queued now rather than when a batch would fill: the
  // pipeline calls it when it has nothing more to send for the moment, so
  // output lingers only while more is coming.
  virtual void SendNow() {}

  // Messages queued and not yet acknowledged, across lanes.
  virtual int64_t unacknowledged() const = 0;

  // --- Transactions (exactly once, docs/daemon.md) ---
  // A transactional sink makes what was sent since its last commit visible
  // together with the input positions, or none of it. The pipeline then
  // commits input offsets only through CommitTransaction().
  virtual bool transactional() const { return false; }
  // Commits everything sent since the last commit together with `offsets`
  // (each partition's next input offset). It waits for every message sent
  // to be acknowledged first, their counters told, so callers send and
  // commit without waiting themselves. kAborted: the transaction was
  // aborted instead (the group moved on, a zombie's offsets were refused, a
  // message failed or timed out; its counter says so): none of it is
  // visible and the caller decides those records again from its last
  // checkpoint. kFailedPrecondition: aborted the same way, because the
  // group no longer counts this member (its session ended while it was
  // away): the partitions are already someone else's, and no commit can
  // succeed before the member rejoins. Any other error is fatal.
  virtual Status CommitTransaction(const std::vector<std::pair<PartitionId, Offset>>& offsets) {
    (void)offsets;
    return Status::Internal("not a transactional sink");
  }
  // Drops what was sent since the last commit (it is never visible); the
  // caller decides those records again. An error is fatal.
  virtual Status AbortTransaction() { return Status::Ok(); }
  // A transaction is open: something was sent since the last commit.
  virtual bool in_transaction() const { return false; }
};

}  // namespace pagesieve::pipeline
