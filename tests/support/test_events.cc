#include "test_events.h"

#include <iterator>
#include <nlohmann/json.hpp>

namespace pagesieve::testing {

std::string ArticleText(int seed) {
  static const char* kWords[] = {"harbour", "council", "budget", "museum",  "winter", "railway",
                                 "orchard", "library", "storm",  "theatre", "canal",  "bakery"};
  std::string text;
  uint32_t x = static_cast<uint32_t>(seed) * 2654435761u + 1;
  for (int i = 0; i < 300; ++i) {
    x = x * 1664525u + 1013904223u;
    text += std::string(i ? " " : "") + kWords[(x >> 16) % std::size(kWords)];
  }
  return text;
}

std::string TextEvent(const std::string& url, int64_t fetched_at_ms, const std::string& text,
                      const std::string& event_id) {
  return nlohmann::json{
             {"url", url}, {"fetched_at", fetched_at_ms}, {"text", text}, {"event_id", event_id}}
             .dump() +
         "\n";
}

}  // namespace pagesieve::testing
