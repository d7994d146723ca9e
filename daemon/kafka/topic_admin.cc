#include "kafka/topic_admin.h"

#include <librdkafka/rdkafka.h>

#include <cstdlib>
#include <memory>
#include <string_view>

#include "common/duration.h"
#include "common/status_or.h"

namespace pagesieve::kafka {
namespace {

using Client = std::unique_ptr<rd_kafka_t, decltype(&rd_kafka_destroy)>;
using Queue = std::unique_ptr<rd_kafka_queue_t, decltype(&rd_kafka_queue_destroy)>;
using Event = std::unique_ptr<rd_kafka_event_t, decltype(&rd_kafka_event_destroy)>;
using Options = std::unique_ptr<rd_kafka_AdminOptions_t, decltype(&rd_kafka_AdminOptions_destroy)>;

StatusOr<Client> NewClient(const std::string& bootstrap,
                           const std::map<std::string, std::string>& common) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char err[512];
  std::map<std::string, std::string> props = common;
  props["bootstrap.servers"] = bootstrap;
  // Connection failures come back as the request's error; librdkafka's own
  // log lines on stderr would only repeat them.
  props["log_level"] = "2";
  for (const auto& [name, value] : props) {
    if (rd_kafka_conf_set(conf, name.c_str(), value.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      return Status::InvalidArgument("librdkafka property " + name + ": " + err);
    }
  }
  Client client(rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err), &rd_kafka_destroy);
  if (!client) return Status::InvalidArgument(std::string("cannot create a Kafka client: ") + err);
  return client;
}

// Waits for the admin result on `queue` and turns the per-topic errors into
// one status. An already existing (create) or missing (delete) topic is fine.
Status Collect(rd_kafka_queue_t* queue, const std::string& bootstrap, Duration timeout,
               bool creating) {
  Event event(rd_kafka_queue_poll(queue, static_cast<int>(timeout.count()) + 1000),
              &rd_kafka_event_destroy);
  if (!event) {
    return Status::DeadlineExceeded("no answer from Kafka at " + bootstrap + " within " +
                                    FormatDuration(timeout) + " ");
  }
  if (rd_kafka_event_error(event.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::Unavailable(rd_kafka_event_error_string(event.get()));
  }
  size_t count = 0;
  const rd_kafka_topic_result_t** results =
      creating ? rd_kafka_CreateTopics_result_topics(
                     rd_kafka_event_CreateTopics_result(event.get()), &count)
               : rd_kafka_DeleteTopics_result_topics(
                     rd_kafka_event_DeleteTopics_result(event.get()), &count);
  for (size_t i = 0; i < count; ++i) {
    const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
    const rd_kafka_resp_err_t benign =
        creating ? RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS : RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART;
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != benign) {
      const char* why = rd_kafka_topic_result_error_string(results[i]);
      return Status::Unavailable(std::string(creating ? "cannot create" : "cannot delete") +
                                 " topic " + rd_kafka_topic_result_name(results[i]) + ": " +
                                 (why ? why : rd_kafka_err2str(err)));
    }
  }
  return Status::Ok();
}

}  // namespace

Status TopicAdmin::Create(const std::vector<std::string>& topics, int partitions,
                          const std::map<std::string, std::string>& configs) const {
  PS_ASSIGN_OR_RETURN(Client client, NewClient(bootstrap_servers_, common_));
  std::vector<std::unique_ptr<rd_kafka_NewTopic_t, decltype(&rd_kafka_NewTopic_destroy)>> owned;
  std::vector<rd_kafka_NewTopic_t*> raw;
  char err[512];
  for (const std::string& name : topics) {
    owned.emplace_back(rd_kafka_NewTopic_new(name.c_str(), partitions, -1, err, sizeof err),
                       &rd_kafka_NewTopic_destroy);
    if (!owned.back()) return Status::InvalidArgument("topic " + name + ": " + err);
    for (const auto& [key, value] : configs) {
      if (rd_kafka_NewTopic_set_config(owned.back().get(), key.c_str(), value.c_str()) !=
          RD_KAFKA_RESP_ERR_NO_ERROR) {
        return Status::InvalidArgument("topic " + name + ": bad config " + key);
      }
    }
    raw.push_back(owned.back().get());
  }
  Options options(rd_kafka_AdminOptions_new(client.get(), RD_KAFKA_ADMIN_OP_CREATETOPICS),
                  &rd_kafka_AdminOptions_destroy);
  rd_kafka_AdminOptions_set_operation_timeout(options.get(), static_cast<int>(timeout_.count()),
                                              err, sizeof err);
  Queue queue(rd_kafka_queue_new(client.get()), &rd_kafka_queue_destroy);
  rd_kafka_CreateTopics(client.get(), raw.data(), raw.size(), options.get(), queue.get());
  return Collect(queue.get(), bootstrap_servers_, timeout_, /*creating=*/true);
}

Status TopicAdmin::Delete(const std::vector<std::string>& topics) const {
  PS_ASSIGN_OR_RETURN(Client client, NewClient(bootstrap_servers_, common_));
  std::vector<std::unique_ptr<rd_kafka_DeleteTopic_t, decltype(&rd_kafka_DeleteTopic_destroy)>>
      owned;
  std::vector<rd_kafka_DeleteTopic_t*> raw;
  for (const std::string& name : topics) {
    owned.emplace_back(rd_kafka_DeleteTopic_new(name.c_str()), &rd_kafka_DeleteTopic_destroy);
    raw.push_back(owned.back().get());
  }
  Options options(rd_kafka_AdminOptions_new(client.get(), RD_KAFKA_ADMIN_OP_DELETETOPICS),
                  &rd_kafka_AdminOptions_destroy);
  Queue queue(rd_kafka_queue_new(client.get()), &rd_kafka_queue_destroy);
  rd_kafka_DeleteTopics(client.get(), raw.data(), raw.size(), options.get(), queue.get());
  return Collect(queue.get(), bootstrap_servers_, timeout_, /*creating=*/false);
}

StatusOr<std::map<std::string, int64_t>> TopicAdmin::MaxMessageBytes(
    const std::vector<std::string>& topics) const {
  PS_ASSIGN_OR_RETURN(Client client, NewClient(bootstrap_servers_, common_));
  using Resource =
      std::unique_ptr<rd_kafka_ConfigResource_t, decltype(&rd_kafka_ConfigResource_destroy)>;
  std::vector<Resource> owned;
  std::vector<rd_kafka_ConfigResource_t*> raw;
  for (const std::string& name : topics) {
    owned.emplace_back(rd_kafka_ConfigResource_new(RD_KAFKA_RESOURCE_TOPIC, name.c_str()),
                       &rd_kafka_ConfigResource_destroy);
    raw.push_back(owned.back().get());
  }
  Options options(rd_kafka_AdminOptions_new(client.get(), RD_KAFKA_ADMIN_OP_DESCRIBECONFIGS),
                  &rd_kafka_AdminOptions_destroy);
  Queue queue(rd_kafka_queue_new(client.get()), &rd_kafka_queue_destroy);
  rd_kafka_DescribeConfigs(client.get(), raw.data(), raw.size(), options.get(), queue.get());
  Event event(rd_kafka_queue_poll(queue.get(), static_cast<int>(timeout_.count()) + 1000),
              &rd_kafka_event_destroy);
  if (!event) {
    return Status::DeadlineExceeded("no answer from Kafka at " + bootstrap_servers_ + " within " +
                                    FormatDuration(timeout_));
  }
  if (rd_kafka_event_error(event.get()) != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::Unavailable(rd_kafka_event_error_string(event.get()));
  }
  size_t count = 0;
  const rd_kafka_ConfigResource_t** results = rd_kafka_DescribeConfigs_result_resources(
      rd_kafka_event_DescribeConfigs_result(event.get()), &count);
  std::map<std::string, int64_t> limits;
  for (size_t i = 0; i < count; ++i) {
    const std::string name = rd_kafka_ConfigResource_name(results[i]);
    const rd_kafka_resp_err_t err = rd_kafka_ConfigResource_error(results[i]);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      const char* why = rd_kafka_ConfigResource_error_string(results[i]);
      const std::string message = "cannot read the configuration of topic " + name + ": " +
                                  (why ? why : "unknown error");
      // A topic another instance created a moment ago: the broker asked may
      // not know it yet (the caller waits for it).
      if (err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART) return Status::NotFound(message);
      return Status::Unavailable(message);
    }
    size_t entries = 0;
    const rd_kafka_ConfigEntry_t** configs = rd_kafka_ConfigResource_configs(results[i], &entries);
    for (size_t j = 0; j < entries; ++j) {
      const char* value = rd_kafka_ConfigEntry_value(configs[j]);
      if (value != nullptr && std::string_view(rd_kafka_ConfigEntry_name(configs[j])) ==
                                  "max.message.bytes") {
        limits[name] = std::strtoll(value, nullptr, 10);
      }
    }
  }
  return limits;
}

}  // namespace pagesieve::kafka
