#pragma once

#include <string>
#include <string_view>

#include "common/status_or.h"
#include "common/types.h"

namespace pagesieve {

// Parses an RFC 3339 timestamp ("2026-11-20T10:00:00Z",
// "2026-11-20T12:00:00.250+02:00"; 't', 'z' and a space separator are
// accepted). Fractions beyond milliseconds are truncated.
StatusOr<EventTime> ParseRfc3339(std::string_view text);

// Formats as UTC RFC 3339: "2026-11-20T10:00:00Z", with ".250" milliseconds
// only when they are not zero.
std::string FormatRfc3339(EventTime t);

}  // namespace pagesieve
