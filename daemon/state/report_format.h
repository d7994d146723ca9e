#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "common/types.h"
#include "store/origin.h"
#include "store/shard_inspector.h"

namespace pagesieve::state {

// Objects keep their keys in the order written: the output reads top-down.
using Json = nlohmann::ordered_json;

// Small pieces that both reports (stats, lookup) print the same way.

// "512 B", "1.5 KiB", "3.2 MiB", "1.1 GiB".
std::string FormatBytes(uint64_t bytes);
// RFC 3339, UTC.
std::string FormatTime(EventTime t);
// "event e1, https://a.example/1, 2026-10-01T00:00:00Z, partition 0, offset 3"
std::string OriginText(const store::Origin& origin);
Json OriginJson(const store::Origin& origin);

// "live until the watermark passes <t>" or "EXPIRED: dead since the
// watermark passed <t>".
std::string LivenessText(bool live, EventTime live_until);

template <typename Entry>
Json EntryJson(const store::Inspected<Entry>& e) {
  return Json{{"origin", OriginJson(e.entry.origin)},
              {"last_seen", FormatTime(e.entry.last_seen)},
              {"live", e.live},
              {"live_until", FormatTime(e.live_until)}};
}

}  // namespace pagesieve::state
