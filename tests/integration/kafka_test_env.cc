#include "kafka_test_env.h"

#include <librdkafka/rdkafka.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <random>

namespace pagesieve::testing {

std::string BootstrapServers() {
  const char* env = std::getenv("PAGESIEVE_TEST_BOOTSTRAP");
  return env != nullptr && *env != '\0' ? env : "127.0.0.1:9092";
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
  void operator()(rd_kafka_AdminOptions_t* o) const { rd_kafka_AdminOptions_destroy(o); }
};
template <typename T>
using KafkaPtr = std::unique_ptr<T, KafkaDeleter>;

}  // namespace

Status CreateTopic(const std::string& name, int partitions, std::chrono::milliseconds timeout) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  if (rd_kafka_conf_set(conf, "bootstrap.servers", BootstrapServers().c_str(), err,
                        sizeof(err)) != RD_KAFKA_CONF_OK) {
    rd_kafka_conf_destroy(conf);
    return Status::InvalidArgument(err);
  }
  KafkaPtr<rd_kafka_t> rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err)));
  if (!rk) return Status::Internal(err);

  KafkaPtr<rd_kafka_NewTopic_t> topic(
      rd_kafka_NewTopic_new(name.c_str(), partitions, 1, err, sizeof(err)));
  if (!topic) return Status::InvalidArgument(err);
  KafkaPtr<rd_kafka_AdminOptions_t> options(
      rd_kafka_AdminOptions_new(rk.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS));
  rd_kafka_AdminOptions_set_operation_timeout(options.get(), static_cast<int>(timeout.count()),
                                              err, sizeof(err));
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

}  // namespace pagesieve::testing
