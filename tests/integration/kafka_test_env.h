#pragma once

#include <chrono>
#include <string>

#include "common/status.h"

namespace pagesieve::testing {

// The broker integration tests talk to: $PAGESIEVE_TEST_BOOTSTRAP, or the
// local broker that scripts/kafka-local runs (127.0.0.1:9092).
std::string BootstrapServers();

// A topic name no earlier run used, so tests never see each other's data.
std::string UniqueTopicName(const std::string& prefix);

// Creates a topic with the admin API and waits until the broker reports it.
Status CreateTopic(const std::string& name, int partitions,
                   std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace pagesieve::testing
