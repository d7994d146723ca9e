// Per-site near rules and their configuration.
#include "engine/near_rule.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "config/config.h"
#include "engine/engine_options.h"

namespace pagesieve::engine {
namespace {

using ::testing::HasSubstr;

TEST(NearPolicyTest, FirstMatchingPatternWinsOnHostOrDomainAndSetsOnlyItsKeys) {
  const NearRule defaults{3, 0.8, NearMethod::kBoth};
  NearPolicy policy(defaults, {{"*.Forum.example", 5, std::nullopt, std::nullopt},
                               {"example.org", std::nullopt, 0.6, NearMethod::kMinHash},
                               {"*", 1, std::nullopt, NearMethod::kSimHash}});
  EXPECT_EQ(policy.RuleFor("www.forum.example", "forum.example"),
            (NearRule{5, 0.8, NearMethod::kBoth}));
  EXPECT_EQ(policy.RuleFor("a.example.org", "example.org"),
            (NearRule{3, 0.6, NearMethod::kMinHash}));
  EXPECT_EQ(policy.RuleFor("other.net", "other.net"), (NearRule{1, 0.8, NearMethod::kSimHash}));
  EXPECT_EQ(policy.MaxDistance(), 5);
  EXPECT_DOUBLE_EQ(policy.MinJaccard(), 0.6);
  EXPECT_EQ(NearPolicy(defaults, {}).RuleFor("x.net", "x.net"), defaults);
}

StatusOr<EngineOptions> Options(const std::string& toml) {
  PS_ASSIGN_OR_RETURN(Config config, Config::FromToml(toml, "test"));
  return EngineOptionsFromConfig(config);
}

TEST(NearPolicyTest, TheShardServesTheWidestDistanceAndTheLowestThreshold) {
  StatusOr<EngineOptions> o = Options(
      "[near]\njaccard = 0.85\n"
      "[[near.overrides]]\npattern = \"a.example\"\nmax_distance = 5\n"
      "[[near.overrides]]\npattern = \"b.example\"\njaccard = 0.7\n");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->shard.near_max_distance, 5);
  EXPECT_DOUBLE_EQ(o->shard.near_lsh_threshold, 0.7);
  EXPECT_EQ(o->decider.near_table_distance, 5);
  EXPECT_DOUBLE_EQ(o->near.jaccard, 0.85);
}

TEST(NearPolicyTest, BadNearKeysAreRefusedNamingThem) {
  EXPECT_THAT(Options("[near]\nmethod = \"fuzzy\"\n").status().message(),
              HasSubstr("near.method"));
  EXPECT_THAT(Options("[near]\njaccard = 1.5\n").status().message(), HasSubstr("near.jaccard"));
  EXPECT_THAT(Options("[near]\njaccard = 0\n").status().message(), HasSubstr("near.jaccard"));
  EXPECT_THAT(Options("[[near.overrides]]\npattern = \"x\"\n").status().message(),
              HasSubstr("near.overrides[0] sets none"));
  EXPECT_THAT(Options("[[near.overrides]]\npattern = \"x\"\nmethod = \"fuzzy\"\n")
                  .status()
                  .message(),
              HasSubstr("near.overrides[0].method"));
  EXPECT_THAT(Options("[[near.overrides]]\npattern = \"x\"\njaccard = 2\n").status().message(),
              HasSubstr("near.overrides[0].jaccard"));
}

TEST(NearMethodTest, NamesRoundTrip) {
  for (NearMethod m : {NearMethod::kSimHash, NearMethod::kMinHash, NearMethod::kBoth}) {
    EXPECT_EQ(*ParseNearMethod(NearMethodName(m)), m);
  }
}

}  // namespace
}  // namespace pagesieve::engine
