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
  const NearRule defaults{3, 0.8, NearMethod::kBoth, 0.0};  // containment off
  NearPolicy policy(defaults, {{"*.Forum.example", 5, std::nullopt, std::nullopt},
                               {"example.org", std::nullopt, 0.6, NearMethod::kMinHash},
                               {"*", 1, std::nullopt, NearMethod::kSimHash}});
  EXPECT_EQ(policy.RuleFor("www.forum.example", "forum.example"),
            (NearRule{5, 0.8, NearMethod::kBoth, 0.0}));
  EXPECT_EQ(policy.RuleFor("a.example.org", "example.org"),
            (NearRule{3, 0.6, NearMethod::kMinHash, 0.0}));
  EXPECT_EQ(policy.RuleFor("other.net", "other.net"),
            (NearRule{1, 0.8, NearMethod::kSimHash, 0.0}));
  EXPECT_EQ(policy.MaxDistance(), 5);
  EXPECT_DOUBLE_EQ(policy.MinJaccard(), 0.6);
  EXPECT_EQ(NearPolicy(defaults, {}).RuleFor("x.net", "x.net"), defaults);
}

StatusOr<EngineOptions> Options(const std::string& toml) {
  PS_ASSIGN_OR_RETURN(Config config, Config::FromToml(toml, "test"));
  return EngineOptionsFromConfig(config);
}

// Containment keys override like the others; where containment is on, its
// Jaccard floor is the lowest Jaccard the site accepts.
TEST(NearPolicyTest, ContainmentKeysOverridePerSiteAndLowerTheBandsThreshold) {
  const NearRule defaults{3, 0.8, NearMethod::kBoth, 0.95, 0.6};
  NearPolicy policy(defaults, {{"strict.example", std::nullopt, std::nullopt, std::nullopt, 0.0,
                                std::nullopt},
                               {"loose.example", std::nullopt, std::nullopt, std::nullopt,
                                std::nullopt, 0.4}});
  EXPECT_EQ(policy.RuleFor("strict.example", "strict.example").containment, 0.0);
  EXPECT_EQ(policy.RuleFor("loose.example", "loose.example").containment_jaccard, 0.4);
  EXPECT_EQ(policy.RuleFor("loose.example", "loose.example").containment, 0.95);
  EXPECT_DOUBLE_EQ(policy.MinJaccard(), 0.4);
  // Off everywhere: the floor does not count.
  EXPECT_DOUBLE_EQ(NearPolicy({3, 0.8, NearMethod::kBoth, 0.0, 0.3}, {}).MinJaccard(), 0.8);
  EXPECT_DOUBLE_EQ(NearPolicy(defaults, {}).MinJaccard(), 0.6);
}

TEST(NearPolicyTest, TheShardServesTheWidestDistanceAndTheLowestThreshold) {
  StatusOr<EngineOptions> o = Options(
      "[near]\njaccard = 0.85\ncontainment = 0\n"
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
  EXPECT_THAT(Options("[near]\ncontainment = 1.5\n").status().message(),
              HasSubstr("near.containment"));
  EXPECT_THAT(Options("[near]\ncontainment_jaccard = 0\n").status().message(),
              HasSubstr("near.containment_jaccard"));
  EXPECT_THAT(
      Options("[[near.overrides]]\npattern = \"x\"\ncontainment = -1\n").status().message(),
      HasSubstr("near.overrides[0].containment"));
  EXPECT_TRUE(Options("[[near.overrides]]\npattern = \"x\"\ncontainment = 0\n").ok());
}

TEST(NearMethodTest, NamesRoundTrip) {
  for (NearMethod m : {NearMethod::kSimHash, NearMethod::kMinHash, NearMethod::kBoth}) {
    EXPECT_EQ(*ParseNearMethod(NearMethodName(m)), m);
  }
}

}  // namespace
}  // namespace pagesieve::engine
