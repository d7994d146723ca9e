// log.format = json: one JSON object per line, whatever the message holds.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli/logging.h"

namespace pagesieve::cli {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// What a logger with the JSON formatter writes for each of `messages`.
std::vector<std::string> LogLines(const std::vector<std::string>& messages,
                                  spdlog::level::level_enum level = spdlog::level::info) {
  std::ostringstream out;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_st>(out);
  spdlog::logger logger("pagesieve", sink);
  logger.set_formatter(MakeJsonFormatter());
  logger.set_level(spdlog::level::trace);
  for (const std::string& m : messages) logger.log(level, "{}", m);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(JsonLogTest, EachLineIsOneObjectWithTimeLevelLoggerAndMessage) {
  std::vector<std::string> lines = LogLines({"assigned pages-3: starting at offset 42"});
  ASSERT_EQ(lines.size(), 1u);
  Json j = Json::parse(lines[0]);
  EXPECT_EQ(j["level"], "info");
  EXPECT_EQ(j["logger"], "pagesieve");
  EXPECT_EQ(j["msg"], "assigned pages-3: starting at offset 42");
  EXPECT_TRUE(std::regex_match(j["time"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")))
      << j["time"];
  EXPECT_EQ(j.size(), 4u);
  // In this order, so a line reads from left to right as the text format does.
  const std::string& line = lines[0];
  EXPECT_LT(line.find("\"time\""), line.find("\"level\""));
  EXPECT_LT(line.find("\"level\""), line.find("\"logger\""));
  EXPECT_LT(line.find("\"logger\""), line.find("\"msg\""));
}

TEST(JsonLogTest, QuotesBackslashesNewlinesAndControlCharactersStayInsideTheLine) {
  const std::string hostile = "say \"hi\"\\ \nnext line\r\t\x01\x1f end";
  std::vector<std::string> lines = LogLines({hostile, "second"});
  ASSERT_EQ(lines.size(), 2u);  // the newline inside did not split the record
  EXPECT_EQ(Json::parse(lines[0])["msg"], hostile);
  EXPECT_EQ(Json::parse(lines[1])["msg"], "second");
}

TEST(JsonLogTest, BytesThatAreNotUtf8BecomeReplacementCharacters) {
  const std::string bad = std::string("url http://x/\xff\xfe") + "\xc3" + " end";
  std::vector<std::string> lines = LogLines({bad, "ünïcødé stays"});
  ASSERT_EQ(lines.size(), 2u);
  Json j = Json::parse(lines[0]);  // throws if the line is not valid UTF-8 JSON
  EXPECT_THAT(j["msg"].get<std::string>(), HasSubstr("\xEF\xBF\xBD"));
  EXPECT_THAT(j["msg"].get<std::string>(), HasSubstr(" end"));
  EXPECT_EQ(Json::parse(lines[1])["msg"], "ünïcødé stays");
}

TEST(JsonLogTest, LevelsAreNamed) {
  EXPECT_EQ(Json::parse(LogLines({"x"}, spdlog::level::warn)[0])["level"], "warning");
  EXPECT_EQ(Json::parse(LogLines({"x"}, spdlog::level::err)[0])["level"], "error");
  EXPECT_EQ(Json::parse(LogLines({"x"}, spdlog::level::debug)[0])["level"], "debug");
}

TEST(JsonLogTest, AHugeMessageIsStillOneLine) {
  std::vector<std::string> lines = LogLines({std::string(1 << 20, '"')});
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(Json::parse(lines[0])["msg"].get<std::string>().size(), 1u << 20);
}

TEST(LogFormatTest, TextAndJsonAreTheFormats) {
  EXPECT_EQ(ParseLogFormat("text").value(), LogFormat::kText);
  EXPECT_EQ(ParseLogFormat("json").value(), LogFormat::kJson);
  EXPECT_FALSE(ParseLogFormat("JSON").ok());
  EXPECT_FALSE(ParseLogFormat("").ok());
}

TEST(LogFormatTest, AnUnknownFormatIsRejectedNamingTheKey) {
  StatusOr<Config> config = Config::FromToml("", "test", {"log.format=xml"});
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  Status s = ConfigureLogging(*config);
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("log.format must be text or json, not 'xml'"));
}

TEST(LogFormatTest, ConfiguringTwiceReplacesTheLogger) {
  StatusOr<Config> config = Config::FromToml("", "test", {"log.format=json"});
  ASSERT_TRUE(config.ok());
  ASSERT_TRUE(ConfigureLogging(*config).ok());
  EXPECT_TRUE(ConfigureLogging(*config).ok());
  EXPECT_EQ(spdlog::default_logger()->name(), "pagesieve");
}

}  // namespace
}  // namespace pagesieve::cli
