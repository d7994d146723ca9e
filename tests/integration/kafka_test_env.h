#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::testing {

// The broker integration tests talk to: $PAGESIEVE_TEST_BOOTSTRAP, or the
// local broker that scripts/kafka-local runs (127.0.0.1:$PAGESIEVE_KAFKA_PORT,
// default 9092).
std::string BootstrapServers();

// A topic name no earlier run used, so tests never see each other's data.
std::string UniqueTopicName(const std::string& prefix);

// Creates a topic with the admin API and waits until the broker reports it.
Status CreateTopic(const std::string& name, int partitions,
                   std::chrono::milliseconds timeout = std::chrono::seconds(30),
                   const std::map<std::string, std::string>& configs = {});

// Deletes every topic whose name contains `part` (a test's own, by its
// unique name): a full test run would otherwise leave gigabytes on the
// broker's disk.
Status DeleteTopicsNamedWith(const std::string& part,
                             std::chrono::milliseconds timeout = std::chrono::seconds(30));

struct TestMessage {
  int32_t partition = 0;
  int64_t offset = 0;
  std::optional<std::string> key;
  std::string value;
  std::vector<std::pair<std::string, std::string>> headers;

  std::optional<std::string> Header(const std::string& name) const;
};

// Produces `messages` (key, value; partition chosen by key, or each
// message's `partition` with `to_partitions`) and waits until every one is
// acknowledged.
Status Produce(const std::string& topic, const std::vector<TestMessage>& messages,
               bool to_partitions = false);

// Reads every partition of `topic` from the beginning until `count`
// messages arrived or `timeout` passed; returns what arrived.
std::vector<TestMessage> ConsumeAll(const std::string& topic, size_t count,
                                    std::chrono::milliseconds timeout);

// Messages currently in `topic`: the sum over partitions of end - start.
StatusOr<int64_t> MessageCount(const std::string& topic);

// Every message of one partition, up to its current end, in offset order.
StatusOr<std::vector<TestMessage>> ReadPartition(const std::string& topic, int32_t partition);

}  // namespace pagesieve::testing
