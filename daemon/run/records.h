#pragma once

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
};

}  // namespace pagesieve::run
