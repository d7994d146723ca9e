#include "kafka_test_env.h"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafkacpp.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <random>
#include <set>

namespace pagesieve::testing {

std::string BootstrapServers() {
  const char* env = std::getenv("PAGESIEVE_TEST_BOOTSTRAP");
  if (env != nullptr && *env != '\0') return env;
  // The port scripts/kafka-local was started on (it reads the same variable).
  const char* port = std::getenv("PAGESIEVE_KAFKA_PORT");
  return std::string("127.0.0.1:") + (port != nullptr && *port != '\0' ? port : "9092");
}

std::string UniqueTopicName(const std::string& prefix) {
  static std::atomic<int> counter{0};
  std::random_device rd;
  return prefix + "-" + std::to_string(rd() % 1000000) + "-" + std::to_string(counter++);
}

namespace {

struct KafkaDeleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
  void operator()(rd_kafka_queue_t* q) const { rd_kafka_queue_destroy(q); }
  void operator()(rd_kafka_event_t* e) const { rd_kafka_event_destroy(e); }
  void operator()(rd_kafka_NewTopic_t* t) const { rd_kafka_NewTopic_destroy(t); }
  void operator()(rd_kafka_DeleteTopic_t* t) const { rd_kafka_DeleteTopic_destroy(t); }
  void operator()(rd_kafka_AdminOptions_t* o) const { rd_kafka_AdminOptions_destroy(o); }
};
template <typename T>
using KafkaPtr = std::unique_ptr<T, KafkaDeleter>;

// A client for admin requests to the test broker.
StatusOr<KafkaPtr<rd_kafka_t>> AdminClient() {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "bootstrap.servers", BootstrapServers().c_str(), err, sizeof(err)) !=
      RD_KAFKA_CONF_OK) {
    rd_kafka_conf_destroy(conf);
    return Status::InvalidArgument(err);
  }
  KafkaPtr<rd_kafka_t> rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err)));
  if (!rk) return Status::Internal(err);
  return rk;
}

}  // namespace

Status CreateTopic(const std::string& name, int partitions, std::chrono::milliseconds timeout,
                   const std::map<std::string, std::string>& configs) {
  char err[512];
  PS_ASSIGN_OR_RETURN(KafkaPtr<rd_kafka_t> rk, AdminClient());

  KafkaPtr<rd_kafka_NewTopic_t> topic(
      rd_kafka_NewTopic_new(name.c_str(), partitions, 1, err, sizeof(err)));
  if (!topic) return Status::InvalidArgument(err);
  for (const auto& [key, value] : configs) {
    if (rd_kafka_NewTopic_set_config(topic.get(), key.c_str(), value.c_str()) !=
        RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::InvalidArgument("topic config " + key);
    }
  }
  KafkaPtr<rd_kafka_AdminOptions_t> options(
      rd_kafka_AdminOptions_new(rk.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS));
  rd_kafka_AdminOptions_set_operation_timeout(options.get(), static_cast<int>(timeout.count()), err,
                                              sizeof(err));
  KafkaPtr<rd_kafka_queue_t> queue(rd_kafka_queue_new(rk.get()));
  rd_kafka_NewTopic_t* topics[] = {topic.get()};
  rd_kafka_CreateTopics(rk.get(), topics, 1, options.get(), queue.get());

  KafkaPtr<rd_kafka_event_t> event(
      rd_kafka_queue_poll(queue.get(), static_cast<int>(timeout.count()) + 5000));
  if (!event) return Status::DeadlineExceeded("CreateTopics got no answer from the broker");
  if (rd_kafka_event_error(event.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::Unavailable(rd_kafka_event_error_string(event.get()));
  }
  const rd_kafka_CreateTopics_result_t* result = rd_kafka_event_CreateTopics_result(event.get());
  size_t count = 0;
  const rd_kafka_topic_result_t** results = rd_kafka_CreateTopics_result_topics(result, &count);
  for (size_t i = 0; i < count; ++i) {
    if (rd_kafka_topic_result_error(results[i]) != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Status::Unavailable(std::string("create topic ") + name + ": " +
                                 rd_kafka_topic_result_error_string(results[i]));
    }
  }
  return Status::Ok();
}

Status DeleteTopicsNamedWith(const std::string& part, std::chrono::milliseconds timeout) {
  PS_ASSIGN_OR_RETURN(KafkaPtr<rd_kafka_t> rk, AdminClient());
  const rd_kafka_metadata_t* metadata = nullptr;
  const rd_kafka_resp_err_t listed = rd_kafka_metadata(rk.get(), /*all_topics=*/1, nullptr,
                                                       &metadata, static_cast<int>(timeout.count()));
  if (listed != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::Unavailable(std::string("listing topics: ") + rd_kafka_err2str(listed));
  }
  std::vector<KafkaPtr<rd_kafka_DeleteTopic_t>> doomed;
  for (int i = 0; i < metadata->topic_cnt; ++i) {
    const std::string name = metadata->topics[i].topic;
    if (name.find(part) != std::string::npos) {
      doomed.emplace_back(rd_kafka_DeleteTopic_new(name.c_str()));
    }
  }
  rd_kafka_metadata_destroy(metadata);
  if (doomed.empty()) return Status::Ok();
  std::vector<rd_kafka_DeleteTopic_t*> topics;
  for (const auto& t : doomed) topics.push_back(t.get());
  KafkaPtr<rd_kafka_queue_t> queue(rd_kafka_queue_new(rk.get()));
  rd_kafka_DeleteTopics(rk.get(), topics.data(), topics.size(), nullptr, queue.get());
  KafkaPtr<rd_kafka_event_t> event(
      rd_kafka_queue_poll(queue.get(), static_cast<int>(timeout.count())));
  if (!event) return Status::DeadlineExceeded("DeleteTopics got no answer from the broker");
  if (rd_kafka_event_error(event.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::Unavailable(rd_kafka_event_error_string(event.get()));
  }
  return Status::Ok();
}

}  // namespace pagesieve::testing

// ---------------------------------------------------------------------------
// Producing and consuming test messages (C++ API).

namespace pagesieve::testing {
namespace {

std::unique_ptr<RdKafka::Conf> GlobalConf() {
  std::unique_ptr<RdKafka::Conf> conf(RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL));
  std::string err;
  conf->set("bootstrap.servers", BootstrapServers(), err);
  return conf;
}

class CountDeliveries : public RdKafka::DeliveryReportCb {
 public:
  void dr_cb(RdKafka::Message& m) override {
    if (m.err() != RdKafka::ERR_NO_ERROR && first_error.empty()) first_error = m.errstr();
    ++done;
  }
  size_t done = 0;
  std::string first_error;
};

TestMessage FromKafka(RdKafka::Message& m) {
  TestMessage t;
  t.partition = m.partition();
  t.offset = m.offset();
  if (m.key_pointer()) t.key.emplace(static_cast<const char*>(m.key_pointer()), m.key_len());
  if (m.payload()) t.value.assign(static_cast<const char*>(m.payload()), m.len());
  if (RdKafka::Headers* h = m.headers()) {
    for (const auto& header : h->get_all()) {
      t.headers.emplace_back(
          header.key(), std::string(static_cast<const char*>(header.value()), header.value_size()));
    }
  }
  return t;
}

}  // namespace

std::optional<std::string> TestMessage::Header(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (k == name) return v;
  }
  return std::nullopt;
}

Status Produce(const std::string& topic, const std::vector<TestMessage>& messages,
               bool to_partitions) {
  auto conf = GlobalConf();
  CountDeliveries deliveries;
  std::string err;
  conf->set("dr_cb", &deliveries, err);
  conf->set("enable.idempotence", "true", err);
  conf->set("message.max.bytes", "20000000", err);
  conf->set("linger.ms", "20", err);
  std::unique_ptr<RdKafka::Producer> producer(RdKafka::Producer::create(conf.get(), err));
  if (!producer) return Status::Internal(err);
  for (const TestMessage& m : messages) {
    RdKafka::Headers* headers = RdKafka::Headers::create();
    for (const auto& [k, v] : m.headers) headers->add(k, v);
    for (;;) {
      RdKafka::ErrorCode rc = producer->produce(
          topic, to_partitions ? m.partition : RdKafka::Topic::PARTITION_UA,
          RdKafka::Producer::RK_MSG_COPY, const_cast<char*>(m.value.data()), m.value.size(),
          m.key ? m.key->data() : nullptr, m.key ? m.key->size() : 0, 0, headers, nullptr);
      if (rc == RdKafka::ERR_NO_ERROR) break;
      if (rc != RdKafka::ERR__QUEUE_FULL) {
        delete headers;
        return Status::Internal(RdKafka::err2str(rc));
      }
      producer->poll(100);
    }
    producer->poll(0);
  }
  if (producer->flush(60000) != RdKafka::ERR_NO_ERROR) {
    return Status::DeadlineExceeded("produce: flush timed out");
  }
  if (!deliveries.first_error.empty()) return Status::Internal(deliveries.first_error);
  return Status::Ok();
}

std::vector<TestMessage> ConsumeAll(const std::string& topic, size_t count,
                                    std::chrono::milliseconds timeout) {
  auto conf = GlobalConf();
  std::string err;
  conf->set("group.id", "reader-" + UniqueTopicName(topic), err);
  conf->set("enable.auto.commit", "false", err);
  conf->set("auto.offset.reset", "earliest", err);
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), err));
  std::vector<TestMessage> out;
  if (!consumer || consumer->subscribe({topic}) != RdKafka::ERR_NO_ERROR) return out;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (out.size() < count && std::chrono::steady_clock::now() < deadline) {
    std::unique_ptr<RdKafka::Message> m(consumer->consume(200));
    if (m->err() == RdKafka::ERR_NO_ERROR) out.push_back(FromKafka(*m));
  }
  consumer->close();
  return out;
}

StatusOr<int64_t> MessageCount(const std::string& topic) {
  auto conf = GlobalConf();
  std::string err;
  std::unique_ptr<RdKafka::Producer> client(RdKafka::Producer::create(conf.get(), err));
  if (!client) return Status::Internal(err);
  std::unique_ptr<RdKafka::Topic> handle(RdKafka::Topic::create(client.get(), topic, nullptr, err));
  RdKafka::Metadata* raw = nullptr;
  if (!handle || client->metadata(false, handle.get(), &raw, 10000) != RdKafka::ERR_NO_ERROR) {
    return Status::Unavailable("no metadata for " + topic);
  }
  std::unique_ptr<RdKafka::Metadata> metadata(raw);
  // Records read as a read_committed consumer reads them (offsets would
  // count transaction markers too), by one consumer for every partition.
  conf->set("group.id", "counter-" + UniqueTopicName(topic), err);
  conf->set("enable.auto.commit", "false", err);
  conf->set("isolation.level", "read_committed", err);
  conf->set("enable.partition.eof", "true", err);
  conf->set("fetch.wait.max.ms", "10", err);  // the end is seen at once, not after a long poll
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), err));
  if (!consumer) return Status::Internal(err);
  std::vector<RdKafka::TopicPartition*> parts;
  std::set<int32_t> open;
  for (const RdKafka::PartitionMetadata* p : *metadata->topics()->at(0)->partitions()) {
    int64_t low = 0, high = 0;
    if (client->query_watermark_offsets(topic, p->id(), &low, &high, 10000) !=
        RdKafka::ERR_NO_ERROR) {
      RdKafka::TopicPartition::destroy(parts);
      return Status::Unavailable("no watermarks for " + topic);
    }
    if (high > low) {
      parts.push_back(RdKafka::TopicPartition::create(topic, p->id(), low));
      open.insert(p->id());
    }
  }
  if (!parts.empty()) consumer->assign(parts);
  RdKafka::TopicPartition::destroy(parts);
  int64_t total = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!open.empty() && std::chrono::steady_clock::now() < deadline) {
    std::unique_ptr<RdKafka::Message> m(consumer->consume(200));
    if (m->err() == RdKafka::ERR__PARTITION_EOF) open.erase(m->partition());
    if (m->err() == RdKafka::ERR_NO_ERROR) ++total;
  }
  consumer->close();
  if (!open.empty()) return Status::DeadlineExceeded(topic + " not read to its end");
  return total;
}

StatusOr<std::vector<TestMessage>> ReadPartition(const std::string& topic, int32_t partition) {
  auto conf = GlobalConf();
  std::string err;
  conf->set("group.id", "reader-" + UniqueTopicName(topic), err);
  conf->set("enable.auto.commit", "false", err);
  // What a consumer of pagesieve's output must read with: aborted
  // transactions' messages never show. The end is reported as an event,
  // since the last offsets may be transaction markers, never delivered.
  conf->set("isolation.level", "read_committed", err);
  conf->set("enable.partition.eof", "true", err);
  conf->set("fetch.wait.max.ms", "10", err);  // the end is seen at once, not after a long poll
  std::unique_ptr<RdKafka::KafkaConsumer> consumer(RdKafka::KafkaConsumer::create(conf.get(), err));
  if (!consumer) return Status::Internal(err);
  int64_t low = 0, high = 0;
  RdKafka::ErrorCode rc = consumer->query_watermark_offsets(topic, partition, &low, &high, 10000);
  if (rc != RdKafka::ERR_NO_ERROR) return Status::Unavailable(RdKafka::err2str(rc));
  std::vector<RdKafka::TopicPartition*> parts = {
      RdKafka::TopicPartition::create(topic, partition, low)};
  consumer->assign(parts);
  RdKafka::TopicPartition::destroy(parts);
  std::vector<TestMessage> out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int64_t next = low;
  while (next < high && std::chrono::steady_clock::now() < deadline) {
    std::unique_ptr<RdKafka::Message> m(consumer->consume(200));
    if (m->err() == RdKafka::ERR__PARTITION_EOF) {
      // Everything committed is read; an open transaction's records come on
      // a later read.
      next = high;
      break;
    }
    if (m->err() != RdKafka::ERR_NO_ERROR) continue;
    next = m->offset() + 1;
    out.push_back(FromKafka(*m));
  }
  consumer->close();
  if (next < high) return Status::DeadlineExceeded("partition not read to its end");
  return out;
}

}  // namespace pagesieve::testing
