#pragma once

#include <string>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"

namespace pagesieve {

// Parses a duration written as one or more <integer><unit> parts, units
// ms, s, m, h, d, w: "500ms", "30s", "12h", "7d", "1h30m". Zero ("0s") is
// allowed; negative, fractional, unit-less or overflowing values are errors.
StatusOr<Duration> ParseDuration(std::string_view text);

// The shortest exact spelling ParseDuration reads back: 7d, 1h30m, 250ms, 0s.
std::string FormatDuration(Duration d);

}  // namespace pagesieve
