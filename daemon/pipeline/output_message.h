#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pagesieve::pipeline {

using Headers = std::vector<std::pair<std::string, std::string>>;

// One message for a sink: a verdict, a dead letter, a repartition record or
// a changelog record. Shaped like a Kafka record because that is the richest
// sink; the file sink uses the topic to pick its file and the value as the
// line.
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

}  // namespace pagesieve::pipeline
