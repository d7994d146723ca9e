#include "config/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pagesieve {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

constexpr std::string_view kDefaults = R"(
[url]
ttl = "7d"
max_length = 8192
sort_query = true
false_positive_rate = 0.01
strip_params = ["utm_*", "gclid"]

[accept]
status = [200, 203]

[near]
overrides = []

[kafka.consumer]
)";

StatusOr<Config> Build(std::string_view text, std::vector<std::string> overrides = {}) {
  return Config::Layered(kDefaults, text, "test.toml", overrides);
}

// Builds a config that must be valid; a failure names the reason.
Config MustBuild(std::string_view text, std::vector<std::string> overrides = {}) {
  StatusOr<Config> c = Build(text, std::move(overrides));
  if (!c.ok()) ADD_FAILURE() << c.status().ToString();
  return c.ok() ? *c : *Config::Layered(kDefaults, "", "empty", {});
}

TEST(ConfigTest, DefaultsApplyWhenNothingIsGiven) {
  Config c = MustBuild("");
  EXPECT_EQ(*c.GetString("url.ttl"), "7d");
  EXPECT_EQ(*c.GetDuration("url.ttl"), std::chrono::hours(7 * 24));
  EXPECT_EQ(*c.GetInt("url.max_length"), 8192);
  EXPECT_TRUE(*c.GetBool("url.sort_query"));
  EXPECT_DOUBLE_EQ(*c.GetDouble("url.false_positive_rate"), 0.01);
  EXPECT_THAT(*c.GetStringList("url.strip_params"), ElementsAre("utm_*", "gclid"));
  EXPECT_THAT(*c.GetIntList("accept.status"), ElementsAre(200, 203));
}

TEST(ConfigTest, FileOverridesDefaultsKeyByKey) {
  Config c = MustBuild("[url]\nttl = \"1d\"\n");
  EXPECT_EQ(*c.GetString("url.ttl"), "1d");
  EXPECT_EQ(*c.GetInt("url.max_length"), 8192);  // untouched
}

TEST(ConfigTest, SetOverridesWinOverTheFileInOrder) {
  Config c = MustBuild("[url]\nttl = \"1d\"\n", {"url.ttl=2d", "url.ttl=3d", "url.max_length=100",
                                              "url.sort_query=false",
                                              "url.false_positive_rate=0.001"});
  EXPECT_EQ(*c.GetString("url.ttl"), "3d");
  EXPECT_EQ(*c.GetInt("url.max_length"), 100);
  EXPECT_FALSE(*c.GetBool("url.sort_query"));
  EXPECT_DOUBLE_EQ(*c.GetDouble("url.false_positive_rate"), 0.001);
}

TEST(ConfigTest, SetWritesArraysAsListsOrTomlArrays) {
  Config c = MustBuild("", {"accept.status=200,204", "url.strip_params=[\"a\", \"b*\"]"});
  EXPECT_THAT(*c.GetIntList("accept.status"), ElementsAre(200, 204));
  EXPECT_THAT(*c.GetStringList("url.strip_params"), ElementsAre("a", "b*"));
}

TEST(ConfigTest, UnknownKeysAreRejectedByName) {
  StatusOr<Config> c = Build("[url]\ntll = \"1d\"\n");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.status().message(), HasSubstr("unknown key 'url.tll'"));
  EXPECT_THAT(c.status().message(), HasSubstr("test.toml"));
  EXPECT_FALSE(Build("", {"url.nope=1"}).ok());
  EXPECT_FALSE(Build("", {"nosection.key=1"}).ok());
}

TEST(ConfigTest, ValuesMustHaveTheTypeOfTheirDefault) {
  StatusOr<Config> c = Build("[url]\nmax_length = \"long\"\n");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.status().message(), HasSubstr("'url.max_length' must be an integer"));
  EXPECT_FALSE(Build("[accept]\nstatus = [\"200\"]\n").ok());
  EXPECT_FALSE(Build("", {"url.max_length=12x"}).ok());
  EXPECT_FALSE(Build("", {"url.sort_query=yes"}).ok());
  EXPECT_FALSE(Build("", {"url=1"}).ok());  // a table
  // An integer may stand for a number.
  Config int_for_number = MustBuild("[url]\nfalse_positive_rate = 1\n");
  EXPECT_DOUBLE_EQ(*int_for_number.GetDouble("url.false_positive_rate"), 1.0);
}

TEST(ConfigTest, SyntaxErrorsNameTheSourceLineAndColumn) {
  StatusOr<Config> c = Build("[url]\nttl = \n");
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.status().message(), HasSubstr("test.toml: line 2"));
}

TEST(ConfigTest, BadDurationsAreReportedWithTheirKey) {
  StatusOr<Duration> d = MustBuild("[url]\nttl = \"soon\"\n").GetDuration("url.ttl");
  ASSERT_FALSE(d.ok());
  EXPECT_THAT(d.status().message(), HasSubstr("url.ttl"));
  EXPECT_THAT(d.status().message(), HasSubstr("soon"));
}

TEST(ConfigTest, EmptyDefaultTablesPassAnyKeyThrough) {
  Config c = MustBuild("[kafka.consumer]\n\"security.protocol\" = \"SSL\"\n\"fetch.max.bytes\" = 1000\n",
                    {"kafka.consumer.client.id=me"});
  EXPECT_THAT(*c.GetStringMap("kafka.consumer"),
              ElementsAre(Pair("client.id", "me"), Pair("fetch.max.bytes", "1000"),
                          Pair("security.protocol", "SSL")));
  // Only empty default tables pass keys through.
  EXPECT_FALSE(Build("", {"url.client.id=me"}).ok());
}

TEST(ConfigTest, ArraysOfTablesComeBackAsConfigs) {
  Config c = MustBuild("[[near.overrides]]\npattern = \"*.forum.example\"\nmax_distance = 5\n");
  std::vector<Config> overrides = *c.GetTableList("near.overrides");
  ASSERT_EQ(overrides.size(), 1u);
  EXPECT_EQ(*overrides[0].GetString("pattern"), "*.forum.example");
  EXPECT_EQ(*overrides[0].GetInt("max_distance"), 5);
}

TEST(ConfigTest, MissingKeyIsNotFound) {
  StatusOr<std::string> s = MustBuild("").GetString("url.nothing");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kNotFound);
}

TEST(ConfigTest, BuiltInDefaultsParseAndRoundTripThroughToToml) {
  StatusOr<Config> defaults = Config::Defaults();
  ASSERT_TRUE(defaults.ok()) << defaults.status().ToString();
  StatusOr<Config> again = Config::FromToml(defaults->ToToml(), "printed");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->ToToml(), defaults->ToToml());
}

TEST(ConfigTest, LoadReportsAnUnreadableFile) {
  StatusOr<Config> c = Config::Load(std::string("/nonexistent/pagesieve.toml"), {});
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(c.status().message(), HasSubstr("/nonexistent/pagesieve.toml"));
}

}  // namespace
}  // namespace pagesieve
