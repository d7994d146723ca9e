#include "kafka/kafka_sink.h"

#include <librdkafka/rdkafkacpp.h>

#include <algorithm>

#include "kafka/log_events.h"

namespace pagesieve::kafka {
namespace {

// What a produced message carries so its delivery report finds its counter.
struct Ticket {
  std::shared_ptr<pipeline::DeliveryCounter> counter;
};

}  // namespace

// librdkafka's delivery reports, handed to the sink.
class KafkaSink::Reports final : public RdKafka::DeliveryReportCb {
 public:
  explicit Reports(KafkaSink& sink) : sink_(sink) {}
  void dr_cb(RdKafka::Message& m) override {
    const bool failed = m.err() != RdKafka::ERR_NO_ERROR;
    sink_.OnDelivery(m.msg_opaque(), failed, failed ? m.topic_name() + ": " + m.errstr() : "",
                     m.offset());
  }

 private:
  KafkaSink& sink_;
};

KafkaSink::KafkaSink(metrics::Counter* delivery_errors) : delivery_errors_(delivery_errors) {}

KafkaSink::~KafkaSink() {
  // Reports for messages still queued are dropped with the producer; their
  // tickets go with them.
  producer_.reset();
}

StatusOr<std::unique_ptr<KafkaSink>> KafkaSink::Create(const KafkaOptions& options,
                                                       metrics::Counter* delivery_errors) {
  std::unique_ptr<KafkaSink> sink(new KafkaSink(delivery_errors));
  PS_ASSIGN_OR_RETURN(auto conf, ProducerConf(options));
  sink->events_ = MakeLogEvents();
  sink->reports_ = std::make_unique<Reports>(*sink);
  std::string err;
  if (conf->set("event_cb", sink->events_.get(), err) != RdKafka::Conf::CONF_OK ||
      conf->set("dr_cb", sink->reports_.get(), err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  sink->producer_.reset(RdKafka::Producer::create(conf.get(), err));
  if (!sink->producer_) return Status::InvalidArgument("cannot create the Kafka producer: " + err);
  return sink;
}

Status KafkaSink::Send(const pipeline::OutputMessage& message,
                       const std::shared_ptr<pipeline::DeliveryCounter>& counter) {
  std::unique_ptr<RdKafka::Headers> headers(RdKafka::Headers::create());
  for (const auto& [name, value] : message.headers) headers->add(name, value);
  auto ticket = std::make_unique<Ticket>(Ticket{counter});
  const RdKafka::ErrorCode err = producer_->produce(
      message.topic, message.partition.value_or(RdKafka::Topic::PARTITION_UA),
      RdKafka::Producer::RK_MSG_COPY,
      message.tombstone ? nullptr : const_cast<char*>(message.value.data()),
      message.tombstone ? 0 : message.value.size(), message.key ? message.key->data() : nullptr,
      message.key ? message.key->size() : 0,
      /*timestamp=*/0, headers.get(), ticket.get());
  if (err == RdKafka::ERR_NO_ERROR) {
    headers.release();  // librdkafka owns them now
    ticket.release();   // freed in OnDelivery
    ++counter->unacknowledged;
    ++unacknowledged_;
    return Status::Ok();
  }
  if (err == RdKafka::ERR__QUEUE_FULL) {
    return Status::ResourceExhausted("producer queue full");
  }
  return Status::Unavailable("cannot produce to " + message.topic + ": " + RdKafka::err2str(err));
}

void KafkaSink::Poll(Duration wait) { producer_->poll(static_cast<int>(wait.count())); }

void KafkaSink::Flush(Duration timeout) { producer_->flush(static_cast<int>(timeout.count())); }

void KafkaSink::OnDelivery(void* opaque, bool failed, const std::string& error, int64_t offset) {
  if (failed && delivery_errors_ != nullptr) delivery_errors_->Increment();
  std::unique_ptr<Ticket> ticket(static_cast<Ticket*>(opaque));
  if (!ticket) return;
  --unacknowledged_;
  pipeline::DeliveryCounter& counter = *ticket->counter;
  --counter.unacknowledged;
  if (failed) {
    if (counter.failures++ == 0) counter.first_error = error;
  } else {
    counter.highest_offset = std::max(counter.highest_offset, offset);
  }
}

}  // namespace pagesieve::kafka
