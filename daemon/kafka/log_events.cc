#include "kafka/log_events.h"

#include <librdkafka/rdkafkacpp.h>
#include <spdlog/spdlog.h>

namespace pagesieve::kafka {
namespace {

class LogEvents final : public RdKafka::EventCb {
 public:
  void event_cb(RdKafka::Event& event) override {
    switch (event.type()) {
      case RdKafka::Event::EVENT_LOG:
        spdlog::log(Level(event.severity()), "librdkafka {}: {}", event.fac(), event.str());
        break;
      case RdKafka::Event::EVENT_ERROR:
        // Brokers going away and coming back land here; the client retries.
        spdlog::warn("librdkafka: {}: {}", RdKafka::err2str(event.err()), event.str());
        break;
      default:
        break;
    }
  }

 private:
  static spdlog::level::level_enum Level(RdKafka::Event::Severity s) {
    if (s <= RdKafka::Event::EVENT_SEVERITY_ERROR) return spdlog::level::err;
    if (s == RdKafka::Event::EVENT_SEVERITY_WARNING) return spdlog::level::warn;
    if (s <= RdKafka::Event::EVENT_SEVERITY_INFO) return spdlog::level::info;
    return spdlog::level::debug;
  }
};

}  // namespace

std::unique_ptr<RdKafka::EventCb> MakeLogEvents() { return std::make_unique<LogEvents>(); }

}  // namespace pagesieve::kafka
