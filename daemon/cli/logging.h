#pragma once

#include <spdlog/formatter.h>

#include <memory>
#include <string_view>

#include "common/status_or.h"
#include "config/config.h"

namespace pagesieve::cli {

enum class LogFormat { kText, kJson };

// "text" or "json" (log.format).
StatusOr<LogFormat> ParseLogFormat(std::string_view name);

// One JSON object per line: {"time":"2026-11-20T10:00:00.250Z","level":"info",
// "logger":"pagesieve","msg":"..."}. The message is escaped as JSON requires,
// and bytes that are not UTF-8 (a hostile URL in a warning) become U+FFFD, so
// every line parses. spdlog calls a formatter from one thread at a time.
std::unique_ptr<spdlog::formatter> MakeJsonFormatter();

// Points spdlog's default logger at stderr with the level of `log.level`,
// in the format of `log.format`.
Status ConfigureLogging(const Config& config);

}  // namespace pagesieve::cli
