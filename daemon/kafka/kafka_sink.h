#pragma once

#include <memory>

#include "common/status_or.h"
#include "kafka/kafka_options.h"
#include "metrics/metric.h"
#include "pipeline/sink.h"

namespace RdKafka {
class DeliveryReportCb;
class EventCb;
class Producer;
}  // namespace RdKafka

namespace pagesieve::kafka {

// The pipeline's Sink over a librdkafka producer: a message is acknowledged
// when the broker has it (acks = all, idempotent: kafka_options.cc).
// Delivery reports arrive from Poll(), on the pipeline's thread, as does
// everything else. Not thread-safe.
class KafkaSink final : public pipeline::Sink {
 public:
  // `delivery_errors` (may be null) counts failed deliveries.
  static StatusOr<std::unique_ptr<KafkaSink>> Create(const KafkaOptions& options,
                                                     metrics::Counter* delivery_errors);
  ~KafkaSink() override;

  Status Send(const pipeline::OutputMessage& message,
              const std::shared_ptr<pipeline::DeliveryCounter>& counter) override;
  void Poll(Duration wait) override;
  int64_t unacknowledged() const override { return unacknowledged_; }

  // Waits up to `timeout` for what is queued to be delivered.
  void Flush(Duration timeout);

 private:
  class Reports;
  KafkaSink(metrics::Counter* delivery_errors);
  void OnDelivery(void* opaque, bool failed, const std::string& error, int64_t offset);

  metrics::Counter* const delivery_errors_;
  std::unique_ptr<RdKafka::EventCb> events_;
  std::unique_ptr<RdKafka::DeliveryReportCb> reports_;
  std::unique_ptr<RdKafka::Producer> producer_;
  int64_t unacknowledged_ = 0;
};

}  // namespace pagesieve::kafka
