#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.h"
#include "common/types.h"

namespace pagesieve::run {

using Headers = std::vector<std::pair<std::string, std::string>>;

// A record read from the input topic, owned (librdkafka's message is gone).
struct ConsumedRecord {
  std::string topic;
  PartitionId partition{};
  Offset offset{};
  std::optional<std::string> key;
  std::string value;
  std::optional<EventTime> timestamp;
  Headers headers;
  Clock::SteadyTime consumed_at{};  // when the loop took it from the consumer
};

// A message for an output topic.
struct OutputMessage {
  std::string topic;
  std::optional<std::string> key;
  std::string value;
  Headers headers;
  // Changelog records go to the partition of their input partition; other
  // output to the partitioner's choice (by key).
  std::optional<int32_t> partition;
  bool tombstone = false;  // no value at all (deletes the key in a compacted topic)
};

}  // namespace pagesieve::run
