#pragma once

#include <cstdint>
#include <memory>
#include <string>

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

  // Messages queued and not yet acknowledged, across lanes.
  virtual int64_t unacknowledged() const = 0;
};

}  // namespace pagesieve::pipeline
