#include <gtest/gtest.h>

#include "config/config.h"
#include "content/content.h"

namespace pagesieve::content {
namespace {

TEST(ContentOptionsTest, DocumentedDefaultsMatchTheStructDefaults) {
  auto config = Config::Defaults();
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  auto options = ExtractionOptionsFromConfig(*config);
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  const ExtractionOptions defaults;
  EXPECT_EQ(options->link_density_max, defaults.link_density_max);
  EXPECT_EQ(options->min_paragraph_chars, defaults.min_paragraph_chars);
  EXPECT_EQ(options->max_depth, defaults.max_depth);
  EXPECT_EQ(options->include_siblings, defaults.include_siblings);
  auto normalize = NormalizeOptionsFromConfig(*config);
  ASSERT_TRUE(normalize.ok());
  EXPECT_EQ(normalize->mask_numbers, NormalizeOptions{}.mask_numbers);
}

TEST(ContentOptionsTest, OverridesAreRead) {
  auto config = Config::FromToml("[content]\nlink_density_max = 0.5\nmask_numbers = true\n", "test",
                                 {"content.max_depth=64"});
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  auto options = ExtractionOptionsFromConfig(*config);
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(options->link_density_max, 0.5);
  EXPECT_EQ(options->max_depth, 64);
  EXPECT_TRUE(NormalizeOptionsFromConfig(*config)->mask_numbers);
}

TEST(ContentOptionsTest, OutOfRangeValuesAreRejectedByKey) {
  const std::pair<const char*, const char*> cases[] = {
      {"content.link_density_max=0", "content.link_density_max"},
      {"content.link_density_max=1.5", "content.link_density_max"},
      {"content.min_paragraph_chars=-1", "content.min_paragraph_chars"},
      {"content.max_depth=2", "content.max_depth"},
      {"content.max_depth=100000", "content.max_depth"},
  };
  for (const auto& [override_text, key] : cases) {
    auto config = Config::FromToml("", "test", {override_text});
    ASSERT_TRUE(config.ok()) << config.status().ToString();
    auto options = ExtractionOptionsFromConfig(*config);
    ASSERT_FALSE(options.ok()) << override_text;
    EXPECT_NE(options.status().message().find(key), std::string::npos)
        << options.status().ToString();
  }
}

}  // namespace
}  // namespace pagesieve::content
