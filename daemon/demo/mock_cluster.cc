#include "demo/mock_cluster.h"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

namespace pagesieve::demo {

// The cluster needs a client instance for its bookkeeping; that instance
// must outlive it, hence the member order (destroyed bottom-up).
struct MockCluster::Handles {
  std::unique_ptr<rd_kafka_t, decltype(&rd_kafka_destroy)> client{nullptr, &rd_kafka_destroy};
  std::unique_ptr<rd_kafka_mock_cluster_t, decltype(&rd_kafka_mock_cluster_destroy)> cluster{
      nullptr, &rd_kafka_mock_cluster_destroy};
};

MockCluster::MockCluster(std::unique_ptr<Handles> handles) : handles_(std::move(handles)) {}

MockCluster::~MockCluster() = default;

StatusOr<std::unique_ptr<MockCluster>> MockCluster::Start(int brokers) {
  auto handles = std::make_unique<Handles>();
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char err[512];
  // Quiet: the mock's own client would log its (absent) bootstrap servers.
  if (rd_kafka_conf_set(conf, "log_level", "3", err, sizeof err) != RD_KAFKA_CONF_OK) {
    rd_kafka_conf_destroy(conf);
    return Status::Internal(std::string("mock cluster: ") + err);
  }
  // rd_kafka_new owns `conf` from here on, whatever it returns.
  handles->client.reset(rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err));
  if (!handles->client) return Status::Internal(std::string("mock cluster client: ") + err);
  handles->cluster.reset(rd_kafka_mock_cluster_new(handles->client.get(), brokers));
  if (!handles->cluster) return Status::Internal("cannot start librdkafka's mock cluster");
  return std::make_unique<MockCluster>(std::move(handles));
}

std::string MockCluster::bootstrap_servers() const {
  return rd_kafka_mock_cluster_bootstraps(handles_->cluster.get());
}

Status MockCluster::CreateTopic(const std::string& name, int partitions) {
  const rd_kafka_resp_err_t err =
      rd_kafka_mock_topic_create(handles_->cluster.get(), name.c_str(), partitions, 1);
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Status::Internal("mock cluster: cannot create topic " + name + ": " +
                            rd_kafka_err2str(err));
  }
  return Status::Ok();
}

void MockCluster::FailNextRequest(int32_t broker_id, int16_t api_key, int error,
                                  std::chrono::milliseconds delay) {
  rd_kafka_mock_broker_push_request_error_rtts(handles_->cluster.get(), broker_id, api_key, 1,
                                               static_cast<rd_kafka_resp_err_t>(error),
                                               static_cast<int>(delay.count()));
}

}  // namespace pagesieve::demo
