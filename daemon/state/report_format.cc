#include "state/report_format.h"

#include <cstdio>

#include "common/time_format.h"

namespace pagesieve::state {

std::string FormatBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes);
  size_t unit = 0;
  while (v >= 1024 && unit + 1 < std::size(kUnits)) {
    v /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[unit]);
  return buf;
}

std::string FormatTime(EventTime t) {
  // RFC 3339 has four-digit years; a hostile or saturated time is printed
  // as what it is.
  constexpr int64_t kYear0 = -62'167'219'200'000;      // 0000-01-01T00:00:00Z
  constexpr int64_t kYear10000 = 253'402'300'800'000;  // 10000-01-01T00:00:00Z
  const int64_t ms = ToMillis(t);
  if (ms < kYear0 || ms >= kYear10000) return std::to_string(ms) + " ms since the epoch";
  return FormatRfc3339(t);
}

std::string OriginText(const store::Origin& o) {
  return "event " + o.event_id + ", " + o.url + ", " + FormatTime(o.event_time) + ", partition " +
         std::to_string(o.partition.value()) + ", offset " + std::to_string(o.offset.value());
}

Json OriginJson(const store::Origin& o) {
  return Json{{"event_id", o.event_id},
              {"url", o.url},
              {"event_time", FormatTime(o.event_time)},
              {"partition", o.partition.value()},
              {"offset", o.offset.value()}};
}

std::string LivenessText(bool live, EventTime live_until) {
  return live ? "live until the watermark passes " + FormatTime(live_until)
              : "EXPIRED: dead since the watermark passed " + FormatTime(live_until);
}

}  // namespace pagesieve::state
