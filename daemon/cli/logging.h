#pragma once

#include "common/status.h"
#include "config/config.h"

namespace pagesieve::cli {

// Points spdlog's default logger at stderr with the level of `log.level`.
Status ConfigureLogging(const Config& config);

}  // namespace pagesieve::cli
