#include "demo/kafka_io.h"

#include <librdkafka/rdkafkacpp.h>

#include <memory>

#include "common/clock.h"

namespace pagesieve::demo {
namespace {

// Counts failed deliveries; called from poll()/flush() on the caller's thread.
class DeliveryErrors final : public RdKafka::DeliveryReportCb {
 public:
  void dr_cb(RdKafka::Message& message) override {
    if (message.err() == RdKafka::ERR_NO_ERROR) return;
    if (failed_++ == 0) first_ = message.errstr();
  }
  int64_t failed() const { return failed_; }
  const std::string& first() const { return first_; }

 private:
  int64_t failed_ = 0;
  std::string first_;
};

StatusOr<std::unique_ptr<RdKafka::KafkaConsumer>> NewReader(const kafka::KafkaOptions& kafka) {
  PS_ASSIGN_OR_RETURN(auto conf, kafka::ConsumerConf(kafka));
  std::string err;
  // Partitions are assigned by hand; the group only names the client. Its
  // failures come back as statuses, so librdkafka need not log them too.
  if (conf->set("group.id", kafka.group_id + "-reader", err) != RdKafka::Conf::CONF_OK ||
      conf->set("log_level", "2", err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), err));
  if (!consumer) return Status::InvalidArgument("cannot create a Kafka consumer: " + err);
  return consumer;
}

int TimeoutMs(Duration d) { return static_cast<int>(d.count()); }

}  // namespace

StatusOr<TopicRanges> Watermarks(const kafka::KafkaOptions& kafka,
                                 const std::vector<std::string>& topics, Duration timeout) {
  PS_ASSIGN_OR_RETURN(auto consumer, NewReader(kafka));
  RdKafka::Metadata* raw = nullptr;
  const RdKafka::ErrorCode err = consumer->metadata(true, nullptr, &raw, TimeoutMs(timeout));
  std::unique_ptr<RdKafka::Metadata> metadata(raw);
  if (err != RdKafka::ERR_NO_ERROR) {
    return Status::Unavailable("cannot reach Kafka at " + kafka.bootstrap_servers + ": " +
                               RdKafka::err2str(err));
  }
  TopicRanges ranges;
  for (const std::string& topic : topics) {
    const RdKafka::TopicMetadata* found = nullptr;
    for (const RdKafka::TopicMetadata* t : *metadata->topics()) {
      if (t->topic() == topic && t->err() == RdKafka::ERR_NO_ERROR) found = t;
    }
    if (found == nullptr) return Status::NotFound("topic " + topic + " does not exist");
    for (const RdKafka::PartitionMetadata* p : *found->partitions()) {
      int64_t low = 0, high = 0;
      const RdKafka::ErrorCode e =
          consumer->query_watermark_offsets(topic, p->id(), &low, &high, TimeoutMs(timeout));
      if (e != RdKafka::ERR_NO_ERROR) {
        return Status::Unavailable("cannot read the end of " + topic + ": " + RdKafka::err2str(e));
      }
      ranges[{topic, p->id()}] = {low, high};
    }
  }
  consumer->close();
  return ranges;
}

TopicOffsets Ends(const TopicRanges& ranges) {
  TopicOffsets ends;
  for (const auto& [tp, range] : ranges) ends[tp] = range.high;
  return ends;
}

Status ProduceSample(const kafka::KafkaOptions& kafka, const std::string& topic,
                     const std::vector<SampleEvent>& events, Duration timeout) {
  PS_ASSIGN_OR_RETURN(auto conf, kafka::ProducerConf(kafka));
  std::string err;
  DeliveryErrors errors;
  // pagesieve waits forever for a broker (message.timeout.ms = 0); the demo
  // would rather say that it could not deliver.
  if (conf->set("message.timeout.ms", std::to_string(timeout.count()), err) !=
          RdKafka::Conf::CONF_OK ||
      conf->set("dr_cb", &errors, err) != RdKafka::Conf::CONF_OK) {
    return Status::Internal(err);
  }
  std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), err));
  if (!producer) return Status::InvalidArgument("cannot create the Kafka producer: " + err);
  for (const SampleEvent& e : events) {
    for (;;) {
      const RdKafka::ErrorCode code = producer->produce(
          topic, RdKafka::Topic::PARTITION_UA, RdKafka::Producer::RK_MSG_COPY,
          const_cast<char*>(e.json.data()), e.json.size(), e.key.data(), e.key.size(), 0, nullptr);
      if (code == RdKafka::ERR_NO_ERROR) break;
      if (code != RdKafka::ERR__QUEUE_FULL) {
        return Status::Unavailable("cannot produce to " + topic + ": " + RdKafka::err2str(code));
      }
      producer->poll(100);  // a full queue drains as deliveries complete
    }
    producer->poll(0);
  }
  if (producer->flush(TimeoutMs(timeout) + 5000) != RdKafka::ERR_NO_ERROR) {
    return Status::DeadlineExceeded("the sample was not acknowledged within the timeout");
  }
  if (errors.failed() > 0) {
    return Status::Unavailable(std::to_string(errors.failed()) +
                               " sample events not delivered: " + errors.first());
  }
  return Status::Ok();
}

StatusOr<std::vector<OutputRecord>> ReadOutputs(const kafka::KafkaOptions& kafka,
                                                const std::vector<std::string>& topics,
                                                const TopicOffsets& from, Duration timeout) {
  PS_ASSIGN_OR_RETURN(TopicRanges ranges, Watermarks(kafka, topics, timeout));
  const TopicOffsets ends = Ends(ranges);
  PS_ASSIGN_OR_RETURN(auto consumer, NewReader(kafka));
  std::vector<RdKafka::TopicPartition*> parts;
  TopicOffsets remaining;  // partitions not read to their end yet
  for (const auto& [tp, end] : ends) {
    auto start = from.find(tp);
    const int64_t begin = start == from.end() ? 0 : start->second;
    if (end <= begin) continue;
    parts.push_back(RdKafka::TopicPartition::create(tp.first, tp.second, begin));
    remaining[tp] = end;
  }
  const RdKafka::ErrorCode assigned = consumer->assign(parts);
  RdKafka::TopicPartition::destroy(parts);
  if (assigned != RdKafka::ERR_NO_ERROR) {
    return Status::Unavailable(std::string("cannot read the output: ") +
                               RdKafka::err2str(assigned));
  }
  std::vector<OutputRecord> records;
  const auto deadline = Clock::System().SteadyNow() + timeout;
  while (!remaining.empty()) {
    if (Clock::System().SteadyNow() >= deadline) {
      return Status::DeadlineExceeded("the verdicts could not be read back within the timeout");
    }
    std::unique_ptr<RdKafka::Message> m(consumer->consume(200));
    if (m->err() != RdKafka::ERR_NO_ERROR) continue;  // timeouts, partition EOF
    const char* payload = static_cast<const char*>(m->payload());
    records.push_back({m->topic_name(), payload ? std::string(payload, m->len()) : std::string(),
                       m->timestamp().timestamp});
    auto it = remaining.find({m->topic_name(), m->partition()});
    if (it != remaining.end() && m->offset() + 1 >= it->second) remaining.erase(it);
  }
  consumer->close();
  return records;
}

}  // namespace pagesieve::demo
