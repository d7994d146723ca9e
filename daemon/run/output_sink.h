#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "common/status.h"
#include "run/records.h"

namespace pagesieve::run {

// Acknowledgements of one partition's output messages. Delivery reports
// count down `unacknowledged`; a failed delivery is remembered, and the
// partition never checkpoints past it. Only touched on the loop's thread.
struct DeliveryCounter {
  int64_t unacknowledged = 0;
  int64_t failures = 0;
  std::string first_error;
  int64_t highest_offset = -1;  // of the acknowledged messages, where the sink knows it
};

// Where output messages go: Kafka in the daemon, a script in tests.
class OutputSink {
 public:
  virtual ~OutputSink() = default;

  // Queues a copy of `message`; its acknowledgement (or failure) is reported
  // later through `counter`, which the sink keeps alive until then. The
  // counter's `unacknowledged` is incremented here. kResourceExhausted means
  // the queue is full: nothing was queued, try again after acknowledgements
  // arrive. Any other error is permanent.
  virtual Status Send(const OutputMessage& message,
                      const std::shared_ptr<DeliveryCounter>& counter) = 0;

  // Messages queued and not yet acknowledged, across partitions.
  virtual int64_t unacknowledged() const = 0;
};

}  // namespace pagesieve::run
