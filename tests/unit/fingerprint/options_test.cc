#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config/config.h"
#include "fingerprint/fingerprinter.h"

namespace pagesieve::fingerprint {
namespace {

StatusOr<FingerprintOptions> OptionsWith(std::vector<std::string> overrides) {
  StatusOr<Config> config = Config::FromToml("", "test", overrides);
  if (!config.ok()) return config.status();
  return FingerprintOptionsFromConfig(*config);
}

TEST(FingerprintOptionsTest, DefaultsComeFromTheDocumentedConfig) {
  StatusOr<FingerprintOptions> options = OptionsWith({});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->max_body_bytes, size_t{8} << 20);
  EXPECT_EQ(options->shingle_size, 3);
  EXPECT_EQ(options->min_tokens, 50u);
  EXPECT_EQ(options->heading_weight, 2.0);
  EXPECT_EQ(options->minhash.slots, 256);
  EXPECT_EQ(options->minhash.bits, 8);
  EXPECT_EQ(options->minhash.min_shingles, 32u);
}

// The documented defaults are the ones the code falls back to.
TEST(FingerprintOptionsTest, ConfigDefaultsMatchTheCompiledDefaults) {
  StatusOr<FingerprintOptions> options = OptionsWith({});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  const MinHashOptions compiled;
  EXPECT_EQ(options->minhash.slots, compiled.slots);
  EXPECT_EQ(options->minhash.bits, compiled.bits);
  EXPECT_EQ(options->minhash.min_shingles, compiled.min_shingles);
}

TEST(FingerprintOptionsTest, ReadsOverrides) {
  StatusOr<FingerprintOptions> options =
      OptionsWith({"near.shingle_size=4", "near.min_tokens=0", "max_body_bytes=4096"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->shingle_size, 4);
  EXPECT_EQ(options->min_tokens, 0u);
  EXPECT_EQ(options->max_body_bytes, 4096u);
}

TEST(FingerprintOptionsTest, ReadsMinHashOverrides) {
  StatusOr<FingerprintOptions> options = OptionsWith(
      {"near.minhash_slots=128", "near.minhash_bits=16", "near.minhash_min_shingles=10"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->minhash.slots, 128);
  EXPECT_EQ(options->minhash.bits, 16);
  EXPECT_EQ(options->minhash.min_shingles, 10u);
  options = OptionsWith({"near.minhash_slots=0"});
  ASSERT_TRUE(options.ok()) << options.status().ToString();
  EXPECT_EQ(options->minhash.slots, 0);  // no sketches
}

void ExpectRejected(const std::string& override_text, const std::string& key) {
  StatusOr<FingerprintOptions> options = OptionsWith({override_text});
  ASSERT_FALSE(options.ok()) << override_text;
  EXPECT_EQ(options.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(options.status().message().find(key), std::string::npos) << options.status().message();
}

TEST(FingerprintOptionsTest, OutOfRangeValuesAreRejectedByName) {
  ExpectRejected("near.shingle_size=0", "near.shingle_size");
  ExpectRejected("near.shingle_size=9", "near.shingle_size");
  ExpectRejected("near.min_tokens=-1", "near.min_tokens");
  ExpectRejected("near.heading_weight=0.5", "near.heading_weight");
  ExpectRejected("near.heading_weight=100.0", "near.heading_weight");
  ExpectRejected("near.minhash_slots=8", "near.minhash_slots");
  ExpectRejected("near.minhash_slots=2048", "near.minhash_slots");
  ExpectRejected("near.minhash_slots=-1", "near.minhash_slots");
  ExpectRejected("near.minhash_bits=12", "near.minhash_bits");
  ExpectRejected("near.minhash_bits=0", "near.minhash_bits");
  ExpectRejected("near.minhash_min_shingles=0", "near.minhash_min_shingles");
  ExpectRejected("content.short_text_tokens=-1", "content.short_text_tokens");
  ExpectRejected("content.short_text_tokens=2000000", "content.short_text_tokens");
  ExpectRejected("max_body_bytes=0", "max_body_bytes");
  ExpectRejected("max_body_bytes=1099511627776", "max_body_bytes");
}

}  // namespace
}  // namespace pagesieve::fingerprint
