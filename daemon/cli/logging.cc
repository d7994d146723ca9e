#include "cli/logging.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace pagesieve::cli {

Status ConfigureLogging(const Config& config) {
  PS_ASSIGN_OR_RETURN(std::string level_name, config.GetString("log.level"));
  const spdlog::level::level_enum level = spdlog::level::from_str(level_name);
  if (level == spdlog::level::off && level_name != "off") {
    return Status::InvalidArgument("log.level must be trace, debug, info, warn, error or off, not '" +
                                   level_name + "'");
  }
  auto logger = spdlog::stderr_logger_mt("pagesieve");
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %^%l%$ %v", spdlog::pattern_time_type::utc);
  logger->set_level(level);
  spdlog::set_default_logger(logger);
  return Status::Ok();
}

}  // namespace pagesieve::cli
