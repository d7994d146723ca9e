// Reading the [url] canonicalization keys.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "url/canonicalizer.h"

namespace pagesieve::url {
namespace {

using ::testing::HasSubstr;

StatusOr<CanonicalizerOptions> FromSet(std::vector<std::string> overrides) {
  StatusOr<Config> config = Config::FromToml("", "test", overrides);
  if (!config.ok()) return config.status();
  return CanonicalizerOptionsFromConfig(*config);
}

TEST(OptionsTest, DocumentedDefaultsMatchTheStructDefaults) {
  StatusOr<CanonicalizerOptions> options = FromSet({});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  const CanonicalizerOptions defaults;
  EXPECT_EQ(options->max_length, defaults.max_length);
  EXPECT_EQ(options->strip_params, defaults.strip_params);
  EXPECT_EQ(options->sort_query, defaults.sort_query);
  EXPECT_EQ(options->strip_www, defaults.strip_www);
  EXPECT_EQ(options->strip_index, defaults.strip_index);
  EXPECT_EQ(options->strip_trailing_slash, defaults.strip_trailing_slash);
  EXPECT_EQ(options->fold_scheme, defaults.fold_scheme);
}

TEST(OptionsTest, DefaultsAreWhatTheSpecAsks) {
  const CanonicalizerOptions defaults;
  EXPECT_EQ(defaults.max_length, 8192u);
  EXPECT_TRUE(defaults.sort_query);
  EXPECT_FALSE(defaults.strip_www || defaults.strip_index || defaults.strip_trailing_slash ||
               defaults.fold_scheme);
  for (const char* name :
       {"utm_*",   "gclid",      "gclsrc",    "dclid",     "gbraid",       "wbraid",
        "fbclid",  "msclkid",    "yclid",     "twclid",    "ttclid",       "igshid",
        "mc_cid",  "mc_eid",     "_ga",       "_gl",       "_hsenc",       "_hsmi",
        "mkt_tok", "jsessionid", "phpsessid", "sessionid", "aspsessionid*"}) {
    EXPECT_THAT(defaults.strip_params, ::testing::Contains(name));
  }
}

TEST(OptionsTest, ReadsEveryKey) {
  StatusOr<CanonicalizerOptions> options = FromSet(
      {"url.max_length=100", "url.strip_params=a,b*", "url.sort_query=false", "url.strip_www=true",
       "url.strip_index=true", "url.strip_trailing_slash=true", "url.fold_scheme=true"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->max_length, 100u);
  EXPECT_EQ(options->strip_params, (std::vector<std::string>{"a", "b*"}));
  EXPECT_FALSE(options->sort_query);
  EXPECT_TRUE(options->strip_www);
  EXPECT_TRUE(options->strip_index);
  EXPECT_TRUE(options->strip_trailing_slash);
  EXPECT_TRUE(options->fold_scheme);
}

TEST(OptionsTest, AcceptsAnEmptyDenylist) {
  StatusOr<CanonicalizerOptions> options = FromSet({"url.strip_params=[]"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_TRUE(options->strip_params.empty());
}

TEST(OptionsTest, RejectsMaxLengthOutOfRange) {
  for (const char* set :
       {"url.max_length=0", "url.max_length=-5", "url.max_length=31", "url.max_length=1048577"}) {
    StatusOr<CanonicalizerOptions> options = FromSet({set});
    ASSERT_FALSE(options.ok()) << set;
    EXPECT_THAT(options.status().message(), HasSubstr("url.max_length")) << set;
  }
}

TEST(OptionsTest, RejectsPatternsThatCouldNeverMatch) {
  for (const char* set :
       {"url.strip_params=[\"\"]", "url.strip_params=[\"a b\"]", "url.strip_params=[\"a=b\"]",
        "url.strip_params=[\"a&b\"]", "url.strip_params=[\"é\"]"}) {
    StatusOr<CanonicalizerOptions> options = FromSet({set});
    ASSERT_FALSE(options.ok()) << set;
    EXPECT_THAT(options.status().message(), HasSubstr("url.strip_params")) << set;
  }
}

TEST(OptionsTest, RejectsAPatternLongerThan256Bytes) {
  StatusOr<CanonicalizerOptions> options = FromSet({"url.strip_params=" + std::string(257, 'a')});
  ASSERT_FALSE(options.ok());
  EXPECT_THAT(options.status().message(), HasSubstr("longer than 256"));
}

}  // namespace
}  // namespace pagesieve::url
