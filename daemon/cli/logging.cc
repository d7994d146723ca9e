#include "cli/logging.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace pagesieve::cli {
namespace {

// RFC 3339 in UTC with milliseconds always present: fixed width, sortable.
std::string FormatTime(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  const auto ms = floor<milliseconds>(t);
  const auto day = floor<days>(ms);
  const year_month_day ymd(day);
  const hh_mm_ss<milliseconds> hms(ms - day);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ",
                static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()), static_cast<long long>(hms.hours().count()),
                static_cast<long long>(hms.minutes().count()),
                static_cast<long long>(hms.seconds().count()),
                static_cast<long long>(hms.subseconds().count()));
  return buf;
}

class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    nlohmann::ordered_json line;
    line["time"] = FormatTime(msg.time);
    const spdlog::string_view_t level = spdlog::level::to_string_view(msg.level);
    line["level"] = std::string(level.data(), level.size());
    line["logger"] = std::string(msg.logger_name.data(), msg.logger_name.size());
    line["msg"] = std::string(msg.payload.data(), msg.payload.size());
    const std::string text =
        line.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
    dest.append(text.data(), text.data() + text.size());
    dest.push_back('\n');
  }

  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonFormatter>();
  }
};

}  // namespace

StatusOr<LogFormat> ParseLogFormat(std::string_view name) {
  if (name == "text") return LogFormat::kText;
  if (name == "json") return LogFormat::kJson;
  return Status::InvalidArgument("log.format must be text or json, not '" + std::string(name) +
                                 "'");
}

std::unique_ptr<spdlog::formatter> MakeJsonFormatter() { return std::make_unique<JsonFormatter>(); }

Status ConfigureLogging(const Config& config) {
  PS_ASSIGN_OR_RETURN(std::string level_name, config.GetString("log.level"));
  const spdlog::level::level_enum level = spdlog::level::from_str(level_name);
  if (level == spdlog::level::off && level_name != "off") {
    return Status::InvalidArgument(
        "log.level must be trace, debug, info, warn, error or off, not '" + level_name + "'");
  }
  PS_ASSIGN_OR_RETURN(std::string format_name, config.GetString("log.format"));
  PS_ASSIGN_OR_RETURN(LogFormat format, ParseLogFormat(format_name));
  // Not through spdlog's registry: a second call (tests) replaces the logger
  // instead of throwing because the name is taken.
  auto logger = std::make_shared<spdlog::logger>("pagesieve",
                                                 std::make_shared<spdlog::sinks::stderr_sink_mt>());
  if (format == LogFormat::kJson) {
    logger->set_formatter(MakeJsonFormatter());
  } else {
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %^%l%$ %v", spdlog::pattern_time_type::utc);
  }
  logger->set_level(level);
  spdlog::set_default_logger(logger);
  return Status::Ok();
}

}  // namespace pagesieve::cli
