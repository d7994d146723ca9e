#pragma once

#include <memory>

namespace RdKafka {
class EventCb;
}

namespace pagesieve::kafka {

// librdkafka's own log lines and client errors, through spdlog: in the
// configured format (one JSON object per line with log.format = json)
// instead of librdkafka's private one on stderr. Called from librdkafka's
// threads; spdlog's default logger is thread-safe.
std::unique_ptr<RdKafka::EventCb> MakeLogEvents();

}  // namespace pagesieve::kafka
