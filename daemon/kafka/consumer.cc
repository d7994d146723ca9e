#include "kafka/consumer.h"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "kafka/log_events.h"

namespace pagesieve::kafka {
namespace {

// librdkafka's partition lists, created and destroyed in one place.
class PartitionList {
 public:
  PartitionList(const std::string& topic, const std::vector<PartitionId>& partitions) {
    for (PartitionId p : partitions)
      list_.push_back(RdKafka::TopicPartition::create(topic, p.value()));
  }
  PartitionList(const std::string& topic,
                const std::vector<std::pair<PartitionId, Offset>>& positions) {
    for (const auto& [p, offset] : positions) {
      list_.push_back(RdKafka::TopicPartition::create(topic, p.value(), offset.value()));
    }
  }
  ~PartitionList() { RdKafka::TopicPartition::destroy(list_); }
  PartitionList(const PartitionList&) = delete;
  PartitionList& operator=(const PartitionList&) = delete;

  std::vector<RdKafka::TopicPartition*>& get() { return list_; }
  RdKafka::TopicPartition& front() { return *list_.front(); }

 private:
  std::vector<RdKafka::TopicPartition*> list_;
};

// librdkafka's error objects: owned, and turned into a Status.
Status FromError(RdKafka::Error* raw, const std::string& what) {
  const std::unique_ptr<RdKafka::Error> error(raw);
  if (!error) return Status::Ok();
  return Status::Unavailable(what + ": " + error->str());
}

Status FromCode(RdKafka::ErrorCode err, const std::string& what) {
  if (err == RdKafka::ERR_NO_ERROR) return Status::Ok();
  return Status::Unavailable(what + ": " + RdKafka::err2str(err));
}

std::vector<PartitionId> Ids(const std::vector<RdKafka::TopicPartition*>& partitions) {
  std::vector<PartitionId> ids;
  for (const RdKafka::TopicPartition* tp : partitions) ids.emplace_back(tp->partition());
  return ids;
}

// Routes librdkafka's rebalance events to the listener.
class RebalanceRouter final : public RdKafka::RebalanceCb {
 public:
  explicit RebalanceRouter(RebalanceListener& listener) : listener_(listener) {}
  void rebalance_cb(RdKafka::KafkaConsumer* consumer, RdKafka::ErrorCode err,
                    std::vector<RdKafka::TopicPartition*>& partitions) override {
    if (err == RdKafka::ERR__ASSIGN_PARTITIONS) {
      listener_.OnAssigned(Ids(partitions));
    } else if (err == RdKafka::ERR__REVOKE_PARTITIONS) {
      if (consumer->assignment_lost()) {
        listener_.OnLost(Ids(partitions));
      } else {
        listener_.OnRevoked(Ids(partitions));
      }
    } else {
      spdlog::error("rebalance: {}", RdKafka::err2str(err));
    }
  }

 private:
  RebalanceListener& listener_;
};

int Ms(Duration d) { return static_cast<int>(d.count()); }

}  // namespace

// --- Consumed ---

Consumed::Consumed(std::unique_ptr<RdKafka::Message> message) : message_(std::move(message)) {
  switch (message_->err()) {
    case RdKafka::ERR_NO_ERROR:
      kind_ = Kind::kRecord;
      break;
    case RdKafka::ERR__TIMED_OUT:
      kind_ = Kind::kTimedOut;
      break;
    case RdKafka::ERR__PARTITION_EOF:
      kind_ = Kind::kPartitionEnd;
      break;
    default:
      kind_ = Kind::kError;
      break;
  }
}
Consumed::~Consumed() = default;
Consumed::Consumed(Consumed&&) noexcept = default;
Consumed& Consumed::operator=(Consumed&&) noexcept = default;

std::string Consumed::error() const { return message_->errstr(); }
PartitionId Consumed::partition() const { return PartitionId(message_->partition()); }
Offset Consumed::offset() const { return Offset(message_->offset()); }

std::optional<std::string_view> Consumed::key() const {
  if (message_->key_pointer() == nullptr) return std::nullopt;
  return std::string_view(static_cast<const char*>(message_->key_pointer()), message_->key_len());
}

std::optional<std::string_view> Consumed::value() const {
  if (message_->payload() == nullptr) return std::nullopt;
  return std::string_view(static_cast<const char*>(message_->payload()), message_->len());
}

std::optional<EventTime> Consumed::timestamp() const {
  const RdKafka::MessageTimestamp ts = message_->timestamp();
  if (ts.type == RdKafka::MessageTimestamp::MSG_TIMESTAMP_NOT_AVAILABLE) return std::nullopt;
  return EventTimeFromMillis(ts.timestamp);
}

pipeline::Payload Consumed::SharedValue() const {
  const std::optional<std::string_view> v = value();
  if (!v) return {};
  return pipeline::Payload::Borrowed(*v, message_);
}

pipeline::Headers Consumed::headers() const {
  pipeline::Headers out;
  RdKafka::Headers* headers = message_->headers();  // not const in librdkafka
  if (headers == nullptr) return out;
  for (const RdKafka::Headers::Header& h : headers->get_all()) {
    out.emplace_back(h.key(), h.value()
                                  ? std::string(static_cast<const char*>(h.value()), h.value_size())
                                  : std::string());
  }
  return out;
}

// --- Consumer ---

Consumer::Consumer(std::string topic, std::unique_ptr<RdKafka::EventCb> events,
                   std::unique_ptr<RdKafka::RebalanceCb> rebalance,
                   std::unique_ptr<RdKafka::KafkaConsumer> consumer)
    : topic_(std::move(topic)),
      events_(std::move(events)),
      rebalance_(std::move(rebalance)),
      consumer_(std::move(consumer)),
      queue_(rd_kafka_queue_get_consumer(consumer_->c_ptr())) {}

Consumer::~Consumer() {
  Close();
  if (queue_ != nullptr) rd_kafka_queue_destroy(queue_);
}

StatusOr<std::unique_ptr<Consumer>> Consumer::CreateMember(const KafkaOptions& options,
                                                           std::string topic,
                                                           RebalanceListener& listener) {
  PS_ASSIGN_OR_RETURN(auto conf, ConsumerConf(options));
  auto events = MakeLogEvents();
  auto rebalance = std::make_unique<RebalanceRouter>(listener);
  std::string err;
  if (conf->set("event_cb", events.get(), err) != RdKafka::Conf::CONF_OK ||
      conf->set("rebalance_cb", rebalance.get(), err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), err));
  if (!consumer) return Status::InvalidArgument("cannot create the Kafka consumer: " + err);
  return std::unique_ptr<Consumer>(
      new Consumer(std::move(topic), std::move(events), std::move(rebalance), std::move(consumer)));
}

StatusOr<std::unique_ptr<Consumer>> Consumer::CreateReader(const KafkaOptions& options,
                                                           std::string topic) {
  PS_ASSIGN_OR_RETURN(auto conf, RestoreConsumerConf(options));
  auto events = MakeLogEvents();
  std::string err;
  if (conf->set("event_cb", events.get(), err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), err));
  if (!consumer) return Status::InvalidArgument("cannot create the restore consumer: " + err);
  return std::unique_ptr<Consumer>(
      new Consumer(std::move(topic), std::move(events), nullptr, std::move(consumer)));
}

Status Consumer::Subscribe() {
  return FromCode(consumer_->subscribe({topic_}), "cannot subscribe to " + topic_);
}

Consumed Consumer::Consume(Duration wait) {
  return Consumed(std::unique_ptr<RdKafka::Message>(consumer_->consume(Ms(wait))));
}

void Consumer::Wake() {
  // Sets the queue's yield flag and signals its waiter: librdkafka's pop
  // returns nothing then, which the C++ API reports as a timeout.
  if (queue_ != nullptr) rd_kafka_queue_yield(queue_);
}

void Consumer::Close() {
  if (closed_) return;
  closed_ = true;
  consumer_->close();
}

StatusOr<std::map<std::string, int32_t>> Consumer::TopicPartitions(Duration timeout) {
  RdKafka::Metadata* raw = nullptr;
  const RdKafka::ErrorCode err =
      consumer_->metadata(/*all_topics=*/true, nullptr, &raw, Ms(timeout));
  const std::unique_ptr<RdKafka::Metadata> metadata(raw);
  PS_RETURN_IF_ERROR(FromCode(err, "metadata"));
  std::map<std::string, int32_t> topics;
  for (const RdKafka::TopicMetadata* t : *metadata->topics()) {
    if (t->err() == RdKafka::ERR_NO_ERROR) {
      topics[t->topic()] = static_cast<int32_t>(t->partitions()->size());
    }
  }
  return topics;
}

namespace {

// Errors that pass: a topic created a moment ago has no leaders yet, leaders
// move, a coordinator loads its state after a broker restart, and an offset
// committed in a transaction is unstable until the transaction ends.
bool Passes(RdKafka::ErrorCode err) {
  switch (err) {
    case RdKafka::ERR_NOT_LEADER_FOR_PARTITION:
    case RdKafka::ERR_LEADER_NOT_AVAILABLE:
    case RdKafka::ERR_UNKNOWN_TOPIC_OR_PART:
    case RdKafka::ERR_COORDINATOR_LOAD_IN_PROGRESS:
    case RdKafka::ERR_COORDINATOR_NOT_AVAILABLE:
    case RdKafka::ERR_NOT_COORDINATOR:
    case RdKafka::ERR_UNSTABLE_OFFSET_COMMIT:
    case RdKafka::ERR_REQUEST_TIMED_OUT:
    case RdKafka::ERR__TRANSPORT:
    case RdKafka::ERR__ALL_BROKERS_DOWN:
    case RdKafka::ERR__WAIT_COORD:
    case RdKafka::ERR__TIMED_OUT:
      return true;
    default:
      return false;
  }
}

// The error an Await* call ends with: Unavailable for one that passes
// (asking again later may succeed), FailedPrecondition for a refusal.
Status AnswerError(RdKafka::ErrorCode err, const std::string& what) {
  const std::string message = what + ": " + RdKafka::err2str(err);
  return Passes(err) ? Status::Unavailable(message) : Status::FailedPrecondition(message);
}

constexpr auto kAskAgainAfter = std::chrono::milliseconds(100);

// One request's timeout: what is left until the deadline, within bounds, so
// that a wait never outlasts its deadline by more than a moment.
int RequestTimeoutMs(const Clock& clock, Clock::SteadyTime deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock.SteadyNow());
  return static_cast<int>(
      std::clamp<std::chrono::milliseconds>(left, kAskAgainAfter, std::chrono::seconds(10))
          .count());
}

}  // namespace

StatusOr<std::pair<int64_t, int64_t>> Consumer::AwaitWatermarks(PartitionId p, const Clock& clock,
                                                                Clock::SteadyTime deadline) {
  for (;;) {
    int64_t low = 0, high = 0;
    const RdKafka::ErrorCode err =
        consumer_->query_watermark_offsets(topic_, p.value(), &low, &high,
                                           RequestTimeoutMs(clock, deadline));
    if (err == RdKafka::ERR_NO_ERROR) return std::make_pair(low, high);
    if (!Passes(err) || clock.SteadyNow() >= deadline) {
      return AnswerError(err, "end of " + topic_ + "-" + std::to_string(p.value()));
    }
    std::this_thread::sleep_for(kAskAgainAfter);
  }
}

std::optional<std::pair<int64_t, int64_t>> Consumer::CachedWatermarks(PartitionId p) {
  int64_t low = 0, high = -1;
  if (consumer_->get_watermark_offsets(topic_, p.value(), &low, &high) != RdKafka::ERR_NO_ERROR ||
      high < 0) {
    return std::nullopt;
  }
  return std::make_pair(low, high);
}

StatusOr<std::optional<Offset>> Consumer::AwaitCommitted(PartitionId p, const Clock& clock,
                                                         Clock::SteadyTime deadline) {
  for (;;) {
    PartitionList parts(topic_, std::vector<PartitionId>{p});
    RdKafka::ErrorCode err = consumer_->committed(parts.get(), RequestTimeoutMs(clock, deadline));
    // The request may succeed while the partition's own answer is an error:
    // its offset is then no answer at all, not "nothing committed".
    if (err == RdKafka::ERR_NO_ERROR) err = parts.front().err();
    if (err == RdKafka::ERR_NO_ERROR) {
      const int64_t committed = parts.front().offset();
      return committed >= 0 ? std::optional<Offset>(Offset(committed)) : std::nullopt;
    }
    if (!Passes(err) || clock.SteadyNow() >= deadline) {
      return AnswerError(err, "committed offset of " + topic_ + "-" + std::to_string(p.value()));
    }
    std::this_thread::sleep_for(kAskAgainAfter);
  }
}

StatusOr<std::map<PartitionId, Offset>> Consumer::Committed(
    const std::vector<PartitionId>& partitions, Duration timeout) {
  PartitionList parts(topic_, partitions);
  PS_RETURN_IF_ERROR(FromCode(consumer_->committed(parts.get(), Ms(timeout)), "committed offsets"));
  std::map<PartitionId, Offset> out;
  for (const RdKafka::TopicPartition* tp : parts.get()) {
    if (tp->err() == RdKafka::ERR_NO_ERROR && tp->offset() >= 0) {
      out.emplace(PartitionId(tp->partition()), Offset(tp->offset()));
    }
  }
  return out;
}

StatusOr<std::optional<Offset>> Consumer::OffsetForTime(PartitionId p, WallTime t,
                                                        Duration timeout) {
  PartitionList parts(topic_, {{p, Offset(t.time_since_epoch().count())}});
  PS_RETURN_IF_ERROR(
      FromCode(consumer_->offsetsForTimes(parts.get(), Ms(timeout)), "offsets for time"));
  const int64_t found = parts.front().offset();
  return found >= 0 ? std::optional<Offset>(Offset(found)) : std::nullopt;
}

Status Consumer::Assign(const std::vector<std::pair<PartitionId, Offset>>& partitions) {
  PartitionList parts(topic_, partitions);
  return FromError(consumer_->incremental_assign(parts.get()), "incremental_assign");
}

Status Consumer::Unassign(const std::vector<PartitionId>& partitions) {
  PartitionList parts(topic_, partitions);
  return FromError(consumer_->incremental_unassign(parts.get()), "incremental_unassign");
}

Status Consumer::AssignOnly(const std::vector<std::pair<PartitionId, Offset>>& partitions) {
  if (partitions.empty()) return FromCode(consumer_->unassign(), "unassign");
  PartitionList parts(topic_, partitions);
  return FromCode(consumer_->assign(parts.get()), "assign");
}

void Consumer::Pause(const std::vector<PartitionId>& partitions) {
  PartitionList parts(topic_, partitions);
  consumer_->pause(parts.get());
}

void Consumer::Resume(const std::vector<PartitionId>& partitions) {
  PartitionList parts(topic_, partitions);
  consumer_->resume(parts.get());
  // librdkafka (2.0) takes a resume on its main thread and does not wake the
  // broker thread that fetches: with every partition paused that thread
  // sleeps up to a second, and a backlog run spent half its time waiting for
  // the fetches after its resumes (docs/benchmarks.md, "The fetches after a
  // resume"). A seek wakes it. Each partition is sought to where the
  // application stands, which is where the resumed fetch starts anyway (a
  // pause drops what was fetched beyond it). One that has returned nothing
  // since its assignment or a seek (a rewind) has no position: it is left as
  // it is, and may wait for that second, which is rare enough to bear.
  if (consumer_->position(parts.get()) != RdKafka::ERR_NO_ERROR) return;
  for (RdKafka::TopicPartition* part : parts.get()) {
    if (part->offset() < 0) continue;
    consumer_->seek(*part, /*timeout_ms=*/0);  // asynchronous: nothing to wait for
  }
}

Status Consumer::Commit(const std::vector<std::pair<PartitionId, Offset>>& offsets, bool sync) {
  PartitionList parts(topic_, offsets);
  return FromCode(sync ? consumer_->commitSync(parts.get()) : consumer_->commitAsync(parts.get()),
                  "offset commit");
}

Status Consumer::Seek(PartitionId p, Offset offset) {
  RdKafka::TopicPartition* part =
      RdKafka::TopicPartition::create(topic_, p.value(), offset.value());
  const RdKafka::ErrorCode err = consumer_->seek(*part, 5000);
  delete part;
  return FromCode(err, "seek");
}

std::unique_ptr<RdKafka::ConsumerGroupMetadata> Consumer::GroupMetadata() {
  return std::unique_ptr<RdKafka::ConsumerGroupMetadata>(consumer_->groupMetadata());
}

}  // namespace pagesieve::kafka
