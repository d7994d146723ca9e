#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "common/status_or.h"
#include "common/types.h"

namespace pagesieve::kafka {

// Creates and deletes topics through Kafka's admin API (CreateTopics,
// DeleteTopics) and reads their limits (DescribeConfigs): the changelog topic of `pagesieve run`, and the topics of
// `pagesieve demo --bootstrap`. `common` holds the [kafka.common] librdkafka
// properties (security settings).
// Each call blocks until the broker answered or `timeout` passed.
class TopicAdmin {
 public:
  TopicAdmin(std::string bootstrap_servers, std::map<std::string, std::string> common,
             Duration timeout)
      : bootstrap_servers_(std::move(bootstrap_servers)),
        common_(std::move(common)),
        timeout_(timeout) {}

  // Replication factor: the broker's default. `configs` are topic
  // configurations (cleanup.policy, ...). A topic that exists already is
  // left as it is.
  Status Create(const std::vector<std::string>& topics, int partitions,
                const std::map<std::string, std::string>& configs = {}) const;
  Status Delete(const std::vector<std::string>& topics) const;
  // Each topic's max.message.bytes (DescribeConfigs): the largest record
  // batch the broker accepts for it.
  StatusOr<std::map<std::string, int64_t>> MaxMessageBytes(
      const std::vector<std::string>& topics) const;

 private:
  std::string bootstrap_servers_;
  std::map<std::string, std::string> common_;
  Duration timeout_;
};

}  // namespace pagesieve::kafka
