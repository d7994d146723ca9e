#include "store/shard_options.h"

#include <gtest/gtest.h>

#include "config/config.h"

namespace pagesieve::store {
namespace {

StatusOr<ShardOptions> FromOverrides(const std::vector<std::string>& overrides) {
  PS_ASSIGN_OR_RETURN(Config config, Config::FromToml("", "test", overrides));
  return ShardOptionsFromConfig(config);
}

void ExpectErrorNaming(const std::vector<std::string>& overrides, std::string_view key) {
  StatusOr<ShardOptions> o = FromOverrides(overrides);
  ASSERT_FALSE(o.ok()) << overrides[0];
  EXPECT_NE(o.status().message().find(key), std::string::npos) << o.status().ToString();
}

TEST(ShardOptionsTest, DefaultsAreTheDocumentedOnes) {
  ShardOptions o = FromOverrides({}).value();
  EXPECT_EQ(o.url_mode, UrlMode::kExact);
  EXPECT_EQ(o.url_ttl, std::chrono::days(7));
  EXPECT_EQ(o.url_false_positive_rate, 0.01);
  EXPECT_EQ(o.exact_ttl, std::chrono::days(30));
  EXPECT_EQ(o.near_ttl, std::chrono::days(30));
  EXPECT_EQ(o.near_max_distance, 3);
  EXPECT_EQ(o.near_tables, 0);
  EXPECT_EQ(o.minhash_slots, 256);
  EXPECT_EQ(o.minhash_bits, 8);
  EXPECT_EQ(o.near_lsh_threshold, 0.8);
  EXPECT_EQ(o.fingerprint_version, 0);  // the engine's to set
  EXPECT_EQ(o.url_filter, FilterKind::kFuse);
}

TEST(ShardOptionsTest, ReadsEveryKey) {
  ShardOptions o =
      FromOverrides({"url.mode=bloom", "url.ttl=12h", "url.expected_items=5",
                     "url.false_positive_rate=0.001", "url.bloom_generations=8", "url.filter=cuckoo",
                     "exact.ttl=1d",
                     "near.ttl=2d", "near.max_distance=6", "near.tables=84",
                     "near.minhash_slots=128", "near.minhash_bits=16", "near.jaccard=0.6"})
          .value();
  EXPECT_EQ(o.url_mode, UrlMode::kBloom);
  EXPECT_EQ(o.url_ttl, std::chrono::hours(12));
  EXPECT_EQ(o.url_expected_items, 5u);
  EXPECT_EQ(o.url_false_positive_rate, 0.001);
  EXPECT_EQ(o.url_bloom_generations, 8);
  EXPECT_EQ(o.url_filter, FilterKind::kCuckoo);
  EXPECT_EQ(o.exact_ttl, std::chrono::days(1));
  EXPECT_EQ(o.near_ttl, std::chrono::days(2));
  EXPECT_EQ(o.near_max_distance, 6);
  EXPECT_EQ(o.near_tables, 84);
  EXPECT_EQ(o.minhash_slots, 128);
  EXPECT_EQ(o.minhash_bits, 16);
  EXPECT_EQ(o.near_lsh_threshold, 0.6);
}

TEST(ShardOptionsTest, NoSketchesNeedNoBanding) {
  ShardOptions o = FromOverrides({"near.minhash_slots=0"}).value();
  EXPECT_EQ(o.minhash_slots, 0);
}

TEST(ShardOptionsTest, BadValuesNameTheirKey) {
  ExpectErrorNaming({"url.mode=maybe"}, "url.mode");
  ExpectErrorNaming({"url.filter=quotient"}, "url.filter");
  ExpectErrorNaming({"url.ttl=0s"}, "url.ttl");
  ExpectErrorNaming({"exact.ttl=0s"}, "exact.ttl");
  ExpectErrorNaming({"near.ttl=soon"}, "near.ttl");
  ExpectErrorNaming({"url.expected_items=0"}, "url.expected_items");
  ExpectErrorNaming({"url.false_positive_rate=1.5"}, "url.false_positive_rate");
  ExpectErrorNaming({"url.false_positive_rate=0"}, "url.false_positive_rate");
  ExpectErrorNaming({"url.bloom_generations=0"}, "url.bloom_generations");
  ExpectErrorNaming({"url.bloom_generations=65"}, "url.bloom_generations");
  ExpectErrorNaming({"url.ttl=3ms"}, "[url]");  // shorter than a millisecond per generation
  ExpectErrorNaming({"near.max_distance=9"}, "near.max_distance");
  ExpectErrorNaming({"near.max_distance=-1"}, "near.max_distance");
  ExpectErrorNaming({"near.tables=3"}, "near.tables");
  ExpectErrorNaming({"near.tables=256"}, "near.tables");
  ExpectErrorNaming({"near.minhash_slots=8"}, "near.minhash_slots");
  ExpectErrorNaming({"near.minhash_slots=1025"}, "near.minhash_slots");
  ExpectErrorNaming({"near.minhash_bits=12"}, "near.minhash_bits");
  ExpectErrorNaming({"near.minhash_bits=64"}, "near.minhash_bits");
  ExpectErrorNaming({"near.jaccard=0"}, "near.jaccard");
  ExpectErrorNaming({"near.jaccard=1.5"}, "near.jaccard");
  // No banding of 16 slots misses at most 1 % of the pairs at J = 0.05.
  ExpectErrorNaming({"near.minhash_slots=16", "near.jaccard=0.05"}, "near.minhash_slots");
}

TEST(ShardOptionsTest, ValidationRequiresAFingerprintVersion) {
  ShardOptions o;
  EXPECT_FALSE(ValidateShardOptions(o).ok());
  o.fingerprint_version = 1;
  EXPECT_TRUE(ValidateShardOptions(o).ok());
}

TEST(StateEnvOptionsTest, ReadsStateSection) {
  Config config =
      Config::FromToml("", "test",
                       {"state.dir=/tmp/x", "state.block_cache_mb=64", "state.write_buffer_mb=32",
                        "state.sync=false", "state.background_threads=3"})
          .value();
  StateEnvOptions o = StateEnvOptionsFromConfig(config).value();
  EXPECT_EQ(o.dir, "/tmp/x");
  EXPECT_EQ(o.block_cache_bytes, 64u << 20);
  EXPECT_EQ(o.write_buffer_bytes, 32u << 20);
  EXPECT_FALSE(o.sync);
  EXPECT_EQ(o.background_threads, 3);
}

TEST(StateEnvOptionsTest, BadValuesNameTheirKey) {
  for (const auto& [assignment, key] : std::vector<std::pair<std::string, std::string>>{
           {"state.dir=", "state.dir"},
           {"state.block_cache_mb=0", "state.block_cache_mb"},
           {"state.write_buffer_mb=-4", "state.write_buffer_mb"},
           {"state.background_threads=0", "state.background_threads"}}) {
    Config config = Config::FromToml("", "test", {assignment}).value();
    StatusOr<StateEnvOptions> o = StateEnvOptionsFromConfig(config);
    ASSERT_FALSE(o.ok()) << assignment;
    EXPECT_NE(o.status().message().find(key), std::string::npos) << o.status().ToString();
  }
}

}  // namespace
}  // namespace pagesieve::store
