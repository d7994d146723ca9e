#include "kafka/kafka_sink.h"

#include <librdkafka/rdkafkacpp.h>

#include <algorithm>

#include "kafka/consumer.h"
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
    // An aborted transaction's messages come back purged: they were never
    // meant to be delivered any more, and their lanes are gone.
    const bool purged =
        m.err() == RdKafka::ERR__PURGE_QUEUE || m.err() == RdKafka::ERR__PURGE_INFLIGHT;
    const bool failed = m.err() != RdKafka::ERR_NO_ERROR && !purged;
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
                                                       metrics::Counter* delivery_errors,
                                                       Consumer* member) {
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
  if (options.processing.exactly_once && !options.processing.transactional_id.empty()) {
    if (member == nullptr) return Status::Internal("a transactional sink needs its group member");
    sink->member_ = member;
    sink->transaction_timeout_ = options.processing.transaction_timeout;
    // Also aborts what an earlier process with this transactional.id left
    // open, and fences that process if it still runs.
    std::unique_ptr<RdKafka::Error> e(sink->producer_->init_transactions(static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(options.startup_timeout).count())));
    if (e) {
      return Status::Unavailable("cannot initialise transactions (transactional.id " +
                                 options.processing.transactional_id + "): " + e->str());
    }
  }
  return sink;
}

int KafkaSink::TransactionTimeoutMs() const {
  return static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(transaction_timeout_).count());
}

Status KafkaSink::TransactionError(RdKafka::Error* error, const std::string& what) {
  std::unique_ptr<RdKafka::Error> e(error);
  if (!e) return Status::Ok();
  if (e->is_fatal()) {
    return Status::Unavailable(what + " failed for good: " + e->str() +
                               " (another instance with this transactional.id took over?)");
  }
  return Status::Aborted(what + ": " + e->str());
}

Status KafkaSink::CommitTransaction(const std::vector<std::pair<PartitionId, Offset>>& offsets) {
  if (!in_transaction_) {
    if (offsets.empty()) return Status::Ok();
    PS_RETURN_IF_ERROR(TransactionError(producer_->begin_transaction(), "beginning a transaction"));
    in_transaction_ = true;
  }
  const int timeout_ms = TransactionTimeoutMs();
  std::vector<RdKafka::TopicPartition*> parts;
  for (const auto& [p, offset] : offsets) {
    parts.push_back(RdKafka::TopicPartition::create(member_->topic(), p.value(), offset.value()));
  }
  std::unique_ptr<RdKafka::ConsumerGroupMetadata> group = member_->GroupMetadata();
  Status s = Status::Ok();
  if (!parts.empty()) {
    s = TransactionError(producer_->send_offsets_to_transaction(parts, group.get(), timeout_ms),
                         "committing input offsets in the transaction");
  }
  RdKafka::TopicPartition::destroy(parts);
  if (s.ok()) s = TransactionError(producer_->commit_transaction(timeout_ms), "committing");
  if (s.code() == StatusCode::kAborted) {
    PS_RETURN_IF_ERROR(AbortTransaction());
    return s;
  }
  if (s.ok()) in_transaction_ = false;
  return s;
}

Status KafkaSink::AbortTransaction() {
  if (!in_transaction_) return Status::Ok();
  const int timeout_ms = TransactionTimeoutMs();
  Status s = TransactionError(producer_->abort_transaction(timeout_ms), "aborting a transaction");
  // Purged messages report back now, so the counts are right at once.
  producer_->poll(0);
  if (s.code() == StatusCode::kAborted) {
    // Not fatal, yet not aborted (the broker did not answer in time): nothing
    // more can be sent on this producer with certainty.
    return Status::Unavailable(s.message());
  }
  if (s.ok()) in_transaction_ = false;
  return s;
}

Status KafkaSink::Send(const pipeline::OutputMessage& message,
                       const std::shared_ptr<pipeline::DeliveryCounter>& counter) {
  if (member_ != nullptr && !in_transaction_) {
    Status begun = TransactionError(producer_->begin_transaction(), "beginning a transaction");
    if (!begun.ok()) return Status::Unavailable(begun.message());
    in_transaction_ = true;
  }
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
