#pragma once

#include <librdkafka/rdkafkacpp.h>

#include <memory>

#include "run/output_sink.h"

namespace pagesieve::kafka {

// OutputSink over a librdkafka producer. Delivery reports arrive through
// OnDelivery(), which the producer's DeliveryReportCb calls from poll() on
// the run loop's thread; so does everything else. Not thread-safe.
class KafkaSink final : public run::OutputSink {
 public:
  explicit KafkaSink(RdKafka::Producer* producer) : producer_(producer) {}

  Status Send(const run::OutputMessage& message,
              const std::shared_ptr<run::DeliveryCounter>& counter) override;
  int64_t unacknowledged() const override { return unacknowledged_; }

  // Hook this into the producer's DeliveryReportCb.
  void OnDelivery(RdKafka::Message& message);

 private:
  RdKafka::Producer* producer_;
  int64_t unacknowledged_ = 0;
};

// Forwards delivery reports to the sink set later (the producer's
// configuration needs the callback before the sink exists).
class DeliveryReports final : public RdKafka::DeliveryReportCb {
 public:
  void set_sink(KafkaSink* sink) { sink_ = sink; }
  void dr_cb(RdKafka::Message& message) override {
    if (sink_ != nullptr) sink_->OnDelivery(message);
  }

 private:
  KafkaSink* sink_ = nullptr;
};

}  // namespace pagesieve::kafka
