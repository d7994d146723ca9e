#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/types.h"

namespace pagesieve::demo {

// Creates and deletes topics on a real broker through Kafka's admin API
// (CreateTopics, DeleteTopics), for `pagesieve demo --bootstrap`. `common`
// holds the [kafka.common] librdkafka properties (security settings).
// Each call blocks until the broker answered or `timeout` passed.
class TopicAdmin {
 public:
  TopicAdmin(std::string bootstrap_servers, std::map<std::string, std::string> common,
             Duration timeout)
      : bootstrap_servers_(std::move(bootstrap_servers)),
        common_(std::move(common)),
        timeout_(timeout) {}

  // Replication factor: the broker's default.
  Status Create(const std::vector<std::string>& topics, int partitions) const;
  Status Delete(const std::vector<std::string>& topics) const;

 private:
  std::string bootstrap_servers_;
  std::map<std::string, std::string> common_;
  Duration timeout_;
};

}  // namespace pagesieve::demo
