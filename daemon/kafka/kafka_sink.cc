#include "kafka/kafka_sink.h"

#include <librdkafka/rdkafkacpp.h>

#include <algorithm>

#include <spdlog/spdlog.h>

#include "kafka/consumer.h"
#include "kafka/log_events.h"

namespace pagesieve::kafka {
namespace {

// What a produced message carries so its delivery report finds its counter.
struct Ticket {
  std::shared_ptr<pipeline::DeliveryCounter> counter;
};

// The coordinator refuses this producer's epoch: a newer producer with the
// same transactional.id started, or the coordinator aborted a transaction
// that outlived its timeout and bumped the epoch itself.
bool IsFence(RdKafka::ErrorCode code) {
  return code == RdKafka::ERR__FENCED || code == RdKafka::ERR_PRODUCER_FENCED ||
         code == RdKafka::ERR_INVALID_PRODUCER_EPOCH;
}

// The group coordinator refuses the offsets of a member it no longer
// counts: the member's session ended (the coordinator restarted, or the
// process stalled past session.timeout), and its partitions are being
// given to others. Only rejoining the group mends it.
bool IsMemberGone(RdKafka::ErrorCode code) {
  return code == RdKafka::ERR_UNKNOWN_MEMBER_ID || code == RdKafka::ERR_ILLEGAL_GENERATION ||
         code == RdKafka::ERR_FENCED_INSTANCE_ID;
}

constexpr char kStalledFence[] =
    " (the coordinator aborted the transaction: it stayed open longer than "
    "processing.transaction_timeout while this process stalled)";

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
    // Sent again, the same message fails the same way.
    const bool permanent = m.err() == RdKafka::ERR_MSG_SIZE_TOO_LARGE ||
                           m.err() == RdKafka::ERR_RECORD_LIST_TOO_LARGE ||
                           m.err() == RdKafka::ERR_INVALID_RECORD ||
                           m.err() == RdKafka::ERR_TOPIC_AUTHORIZATION_FAILED;
    sink_.OnDelivery(m.msg_opaque(), failed, failed && permanent,
                     failed ? m.topic_name() + ": " + m.errstr() : "", m.offset());
  }

 private:
  KafkaSink& sink_;
};

KafkaSink::KafkaSink(metrics::Counter* delivery_errors, const Clock& clock)
    : delivery_errors_(delivery_errors), clock_(clock) {}

void KafkaSink::Began() {
  in_transaction_ = true;
  transaction_began_ = clock_.SteadyNow();
}

bool KafkaSink::FenceIsAStall() const {
  // The coordinator times a transaction out no sooner than the timeout
  // after its first partition was added, which is after Began(). A fence
  // of a younger transaction is another producer with this id: two
  // machines with the same host name and state directory, say.
  return options_.processing.transactional_id_exclusive && in_transaction_ &&
         clock_.SteadyNow() - transaction_began_ >= transaction_timeout_;
}

KafkaSink::~KafkaSink() {
  // Reports for messages still queued are dropped with the producer; their
  // tickets go with them.
  learned_topics_.clear();
  producer_.reset();
}

void KafkaSink::LearnTopics(const std::vector<std::string>& topics) {
  for (const std::string& topic : topics) {
    if (std::find(learned_names_.begin(), learned_names_.end(), topic) == learned_names_.end()) {
      LearnTopic(topic);
    }
  }
}

void KafkaSink::LearnTopic(const std::string& topic) {
  learned_names_.push_back(topic);
  std::string err;
  std::unique_ptr<RdKafka::Topic> handle(
      RdKafka::Topic::create(producer_.get(), topic, nullptr, err));
  if (!handle) return;  // produce() reports what is wrong with the name
  RdKafka::Metadata* metadata = nullptr;
  // The answer fills librdkafka's topic cache. Without one (a broker away),
  // the message waits for librdkafka's own refresh, as it would have.
  if (producer_->metadata(false, handle.get(), &metadata, kLearnTopicTimeoutMs) ==
      RdKafka::ERR_NO_ERROR) {
    delete metadata;
  }
  learned_topics_.push_back(std::move(handle));
}

StatusOr<std::unique_ptr<KafkaSink>> KafkaSink::Create(const KafkaOptions& options,
                                                       metrics::Counter* delivery_errors,
                                                       Consumer* member, const Clock& clock) {
  std::unique_ptr<KafkaSink> sink(new KafkaSink(delivery_errors, clock));
  sink->options_ = options;
  sink->events_ = MakeLogEvents();
  sink->reports_ = std::make_unique<Reports>(*sink);
  if (options.processing.exactly_once && !options.processing.transactional_id.empty()) {
    if (member == nullptr) return Status::Internal("a transactional sink needs its group member");
    sink->member_ = member;
    sink->transaction_timeout_ = options.processing.transaction_timeout;
  }
  PS_RETURN_IF_ERROR(sink->Connect());
  return sink;
}

Status KafkaSink::Connect() {
  PS_ASSIGN_OR_RETURN(auto conf, ProducerConf(options_));
  std::string err;
  if (conf->set("event_cb", events_.get(), err) != RdKafka::Conf::CONF_OK ||
      conf->set("dr_cb", reports_.get(), err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  producer_.reset(RdKafka::Producer::create(conf.get(), err));
  if (!producer_) return Status::InvalidArgument("cannot create the Kafka producer: " + err);
  if (member_ == nullptr) return Status::Ok();
  // Also aborts what an earlier producer with this transactional.id left
  // open, and fences that producer if it still runs.
  std::unique_ptr<RdKafka::Error> e(producer_->init_transactions(static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(options_.startup_timeout).count())));
  if (e) {
    return Status::Unavailable("cannot initialise transactions (transactional.id " +
                               options_.processing.transactional_id + "): " + e->str());
  }
  return Status::Ok();
}

Status KafkaSink::Reconnect() {
  // Whatever the old producer still holds belongs to the transaction being
  // given up: purged, its tickets come back through the reports (as not
  // failed, like an abort's), then it goes.
  producer_->purge(RdKafka::Producer::PURGE_QUEUE | RdKafka::Producer::PURGE_INFLIGHT |
                   RdKafka::Producer::PURGE_NON_BLOCKING);
  producer_->poll(0);
  learned_topics_.clear();
  const std::vector<std::string> learned = std::move(learned_names_);
  learned_names_.clear();
  producer_.reset();
  in_transaction_ = false;
  stalled_fence_ = false;
  PS_RETURN_IF_ERROR(Connect());
  LearnTopics(learned);  // the new producer knows none of them yet
  return Status::Ok();
}

int KafkaSink::TransactionTimeoutMs() const {
  return static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(transaction_timeout_).count());
}

Status KafkaSink::TransactionError(RdKafka::Error* error, const std::string& what) {
  std::unique_ptr<RdKafka::Error> e(error);
  if (!e) return Status::Ok();
  if (e->is_fatal()) {
    const bool fenced = IsFence(e->code());
    if (fenced && FenceIsAStall()) {
      // No other process can hold this id, so the fence is the coordinator
      // timing the transaction out. None of it was committed: it is aborted
      // (by a new producer, AbortTransaction) and its records decided again.
      stalled_fence_ = true;
      return Status::Aborted(what + ": " + e->str() + kStalledFence);
    }
    fenced_ |= fenced;
    return Status::Unavailable(
        what + " failed for good: " + e->str() +
        (fenced ? " (another instance with this transactional.id took over, or this one "
                  "stalled longer than processing.transaction_timeout: is "
                  "processing.transactional_id or kafka.instance_id the same on two instances?)"
                : ""));
  }
  // Retriable: the broker did not answer in time (it may be away); the
  // same call is made again. Anything else needs the transaction aborted.
  if (e->is_retriable() && !e->txn_requires_abort()) {
    return Status::DeadlineExceeded(what + ": " + e->str());
  }
  if (IsMemberGone(e->code())) {
    return Status::FailedPrecondition(what + ": " + e->str() +
                                      " (the consumer group no longer counts this member)");
  }
  return Status::Aborted(what + ": " + e->str());
}

Status KafkaSink::Retrying(const std::function<RdKafka::Error*(int timeout_ms)>& call,
                           const std::string& what) {
  // A commit whose answer was lost may have been made: aborting it would
  // fail (the coordinator is committing it), and deciding its records again
  // would publish them twice. librdkafka's rule is to repeat the call.
  // Bounded by the transaction timeout: by then the coordinator has aborted
  // the transaction itself.
  const int timeout_ms = TransactionTimeoutMs();
  Status s;
  for (int tries = 0; tries < kTransactionCallTries; ++tries) {
    s = TransactionError(call(timeout_ms), what);
    if (s.code() != StatusCode::kDeadlineExceeded) return s;
  }
  return Status::Unavailable(s.message() + " (no answer after " +
                             std::to_string(kTransactionCallTries) + " tries)");
}

Status KafkaSink::CommitTransaction(const std::vector<std::pair<PartitionId, Offset>>& offsets) {
  if (!in_transaction_) {
    if (offsets.empty()) return Status::Ok();
    PS_RETURN_IF_ERROR(TransactionError(producer_->begin_transaction(), "beginning a transaction"));
    Began();
  }
  Status s = Status::Ok();
  if (!offsets.empty()) {
    std::unique_ptr<RdKafka::ConsumerGroupMetadata> group = member_->GroupMetadata();
    s = Retrying(
        [&](int timeout_ms) {
          std::vector<RdKafka::TopicPartition*> parts;
          for (const auto& [p, offset] : offsets) {
            parts.push_back(
                RdKafka::TopicPartition::create(member_->topic(), p.value(), offset.value()));
          }
          RdKafka::Error* e =
              producer_->send_offsets_to_transaction(parts, group.get(), timeout_ms);
          RdKafka::TopicPartition::destroy(parts);
          return e;
        },
        "committing input offsets in the transaction");
  }
  if (s.ok()) {
    s = Retrying([&](int timeout_ms) { return producer_->commit_transaction(timeout_ms); },
                 "committing");
  }
  if (s.code() == StatusCode::kAborted || s.code() == StatusCode::kFailedPrecondition) {
    PS_RETURN_IF_ERROR(AbortTransaction());
    return s;
  }
  if (s.ok()) in_transaction_ = false;
  return s;
}

Status KafkaSink::AbortTransaction() {
  Status s = Status::Ok();
  if (!stalled_fence_) {
    if (!in_transaction_) return Status::Ok();
    s = Retrying([&](int timeout_ms) { return producer_->abort_transaction(timeout_ms); },
                 "aborting a transaction");
    // Purged messages report back now, so the counts are right at once.
    producer_->poll(0);
    if (s.ok()) {
      in_transaction_ = false;
      return s;
    }
  }
  if (stalled_fence_ || (s.code() == StatusCode::kUnavailable && !fenced_)) {
    // librdkafka gave up on this producer: the coordinator timed its
    // transaction out while the process stalled (a fence of an exclusive
    // id, TransactionError), or, back from a restart, never saw the
    // transaction begin and refuses to abort it (INVALID_TXN_STATE).
    // Nothing of it was committed: a new producer with the same
    // transactional.id bumps the epoch, which aborts whatever of it did
    // reach the broker.
    spdlog::warn("{}; starting a new producer with the same transactional.id",
                 stalled_fence_ ? "the coordinator timed out this stage's transaction" : s.message());
    return Reconnect().WithContext("after a failed abort");
  }
  return s;
}

Status KafkaSink::Send(const pipeline::OutputMessage& message,
                       const std::shared_ptr<pipeline::DeliveryCounter>& counter) {
  if (member_ != nullptr && !in_transaction_) {
    Status begun = TransactionError(producer_->begin_transaction(), "beginning a transaction");
    if (!begun.ok()) return Status::Unavailable(begun.message());
    Began();
  }
  if (std::find(learned_names_.begin(), learned_names_.end(), message.topic) ==
      learned_names_.end()) {
    LearnTopic(message.topic);
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
  if (err == RdKafka::ERR__STATE && member_ != nullptr) {
    // The transaction failed (a message of it was refused): it must be
    // aborted. The refusal's report is served first, so the lane that sent
    // the refused message knows why.
    producer_->poll(0);
    return Status::Aborted("cannot produce to " + message.topic +
                           ": the transaction failed and must be aborted");
  }
  if (err == RdKafka::ERR__FATAL && member_ != nullptr && FenceIsAStall()) {
    std::string why;
    if (IsFence(producer_->fatal_error(why))) {
      stalled_fence_ = true;
      producer_->poll(0);  // the open transaction's reports, as above
      return Status::Aborted("cannot produce to " + message.topic + ": " + why + kStalledFence);
    }
  }
  return Status::Unavailable("cannot produce to " + message.topic + ": " + RdKafka::err2str(err));
}

void KafkaSink::Poll(Duration wait) { producer_->poll(static_cast<int>(wait.count())); }

void KafkaSink::SendNow() {
  // librdkafka sends what is queued at once while a flush is under way,
  // ignoring linger.ms; a zero timeout does not wait for the answers.
  if (producer_->outq_len() > 0) producer_->flush(1);
}

void KafkaSink::Flush(Duration timeout) { producer_->flush(static_cast<int>(timeout.count())); }

void KafkaSink::OnDelivery(void* opaque, bool failed, bool permanent, const std::string& error,
                           int64_t offset) {
  if (failed && delivery_errors_ != nullptr) delivery_errors_->Increment();
  std::unique_ptr<Ticket> ticket(static_cast<Ticket*>(opaque));
  if (!ticket) return;
  --unacknowledged_;
  pipeline::DeliveryCounter& counter = *ticket->counter;
  --counter.unacknowledged;
  if (failed) {
    if (counter.failures++ == 0) counter.first_error = error;
    counter.permanent_failures += permanent;
  } else {
    counter.highest_offset = std::max(counter.highest_offset, offset);
  }
}

}  // namespace pagesieve::kafka
