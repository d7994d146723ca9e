#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "common/status_or.h"

namespace pagesieve::demo {

// librdkafka's in-process mock Kafka cluster: real brokers speaking the Kafka
// protocol on loopback ports, in threads of this process, so the daemon's
// real code path runs with nothing installed. It keeps at most a few MiB per
// partition (older records are dropped), which bounds the demo's sample.
// Thread-safe as librdkafka's mock API is; destroying it stops the brokers.
class MockCluster {
 public:
  static StatusOr<std::unique_ptr<MockCluster>> Start(int brokers);

  struct Handles;                                          // librdkafka's, defined in the .cc
  explicit MockCluster(std::unique_ptr<Handles> handles);  // use Start()
  ~MockCluster();
  MockCluster(const MockCluster&) = delete;
  MockCluster& operator=(const MockCluster&) = delete;

  // "127.0.0.1:port,...": bootstrap.servers for clients of the cluster.
  std::string bootstrap_servers() const;
  // The mock answers no CreateTopics request: topics are made through it.
  Status CreateTopic(const std::string& name, int partitions);
  // Fault injection: the next request of Kafka API `api_key` (the protocol's
  // number, e.g. 26 for EndTxn) to broker `broker_id` is answered with
  // `error` (a Kafka error code, 0 for none) after `delay`.
  void FailNextRequest(int32_t broker_id, int16_t api_key, int error,
                       std::chrono::milliseconds delay = std::chrono::milliseconds(0));

 private:
  std::unique_ptr<Handles> handles_;
};

}  // namespace pagesieve::demo
