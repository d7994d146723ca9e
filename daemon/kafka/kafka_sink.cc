#include "kafka/kafka_sink.h"

#include <algorithm>

namespace pagesieve::kafka {
namespace {

// What a produced message carries so its delivery report finds its counter.
struct Ticket {
  std::shared_ptr<run::DeliveryCounter> counter;
};

}  // namespace

Status KafkaSink::Send(const run::OutputMessage& message,
                       const std::shared_ptr<run::DeliveryCounter>& counter) {
  std::unique_ptr<RdKafka::Headers> headers(RdKafka::Headers::create());
  for (const auto& [name, value] : message.headers) headers->add(name, value);
  auto ticket = std::make_unique<Ticket>(Ticket{counter});
  const RdKafka::ErrorCode err = producer_->produce(
      message.topic, message.partition.value_or(RdKafka::Topic::PARTITION_UA),
      RdKafka::Producer::RK_MSG_COPY,
      message.tombstone ? nullptr : const_cast<char*>(message.value.data()),
      message.tombstone ? 0 : message.value.size(),
      message.key ? message.key->data() : nullptr, message.key ? message.key->size() : 0,
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

void KafkaSink::OnDelivery(RdKafka::Message& message) {
  std::unique_ptr<Ticket> ticket(static_cast<Ticket*>(message.msg_opaque()));
  if (!ticket) return;
  --unacknowledged_;
  run::DeliveryCounter& counter = *ticket->counter;
  --counter.unacknowledged;
  if (message.err() != RdKafka::ERR_NO_ERROR) {
    if (counter.failures++ == 0) {
      counter.first_error = message.topic_name() + ": " + message.errstr();
    }
  } else {
    counter.highest_offset = std::max(counter.highest_offset, message.offset());
  }
}

}  // namespace pagesieve::kafka
