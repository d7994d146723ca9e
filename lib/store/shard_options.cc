#include "store/shard_options.h"

#include <string>

#include "config/config.h"
#include "store/bloom/bloom_options.h"
#include "store/lsh_bands.h"
#include "store/simhash_tables.h"
#include "store/url_bloom.h"

namespace pagesieve::store {
namespace {

Status OutOfRange(std::string_view key, std::string_view what) {
  return Status::InvalidArgument("config key '" + std::string(key) + "' " + std::string(what));
}

Status CheckTtl(std::string_view key, Duration ttl) {
  if (ttl.count() <= 0) return OutOfRange(key, "must be a positive duration");
  return Status::Ok();
}

StatusOr<int> GetIntIn(const Config& config, std::string_view key, int64_t lo, int64_t hi) {
  PS_ASSIGN_OR_RETURN(int64_t v, config.GetInt(key));
  if (v < lo || v > hi) {
    return OutOfRange(key, "must be between " + std::to_string(lo) + " and " + std::to_string(hi) +
                               ", not " + std::to_string(v));
  }
  return static_cast<int>(v);
}

StatusOr<UrlMode> ParseUrlMode(std::string_view text) {
  if (text == "exact") return UrlMode::kExact;
  if (text == "bloom") return UrlMode::kBloom;
  return OutOfRange("url.mode",
                    "must be \"exact\" or \"bloom\", not \"" + std::string(text) + "\"");
}

StatusOr<FilterKind> ParseUrlFilter(std::string_view text) {
  if (text == "cuckoo") return FilterKind::kCuckoo;
  if (text == "bloom") return FilterKind::kBloom;
  if (text == "fuse") return FilterKind::kFuse;
  return OutOfRange("url.filter",
                    "must be \"bloom\", \"cuckoo\" or \"fuse\", not \"" + std::string(text) + "\"");
}

// The MinHash sketches' parameters, as lib/fingerprint allows them, and a
// banding of them for the threshold (LshBands names the key at fault).
Status ValidateLsh(const ShardOptions& o) {
  if (o.minhash_slots != 0 &&
      (o.minhash_slots < kMinSketchSlots || o.minhash_slots > kMaxSketchSlots)) {
    return OutOfRange("near.minhash_slots", "must be 0 (no sketches) or between " +
                                                std::to_string(kMinSketchSlots) + " and " +
                                                std::to_string(kMaxSketchSlots));
  }
  if (o.minhash_bits != 8 && o.minhash_bits != 16 && o.minhash_bits != 32) {
    return OutOfRange("near.minhash_bits", "must be 8, 16 or 32");
  }
  if (!(o.near_lsh_threshold > 0.0 && o.near_lsh_threshold <= 1.0)) {
    return OutOfRange("near.jaccard", "must be above 0 and at most 1");
  }
  if (o.minhash_slots == 0) return Status::Ok();
  return LshBands::Create(o.minhash_slots, o.minhash_bits, o.near_lsh_threshold).status();
}

// Everything the configuration sets (not fingerprint_version).
Status ValidateConfigured(const ShardOptions& o) {
  PS_RETURN_IF_ERROR(CheckTtl("url.ttl", o.url_ttl));
  PS_RETURN_IF_ERROR(CheckTtl("exact.ttl", o.exact_ttl));
  PS_RETURN_IF_ERROR(CheckTtl("near.ttl", o.near_ttl));
  if (o.url_expected_items < 1) return OutOfRange("url.expected_items", "must be at least 1");
  if (!(o.url_false_positive_rate >= kMinBloomFalsePositiveRate &&
        o.url_false_positive_rate <= kMaxBloomFalsePositiveRate)) {
    return OutOfRange("url.false_positive_rate", "must be between 1e-6 and 0.5");
  }
  if (o.url_bloom_generations < 1 || o.url_bloom_generations > kMaxBloomGenerations) {
    return OutOfRange("url.bloom_generations", "must be between 1 and 64");
  }
  // Anything else the filter refuses (a url.ttl shorter than one millisecond
  // per generation, sizes beyond its limits).
  PS_RETURN_IF_ERROR(ValidateBloomOptions(UrlBloomOptions(o)).WithContext("config section [url]"));
  PS_RETURN_IF_ERROR(NearLayout::Create(o.near_max_distance, o.near_tables).status());
  return ValidateLsh(o);
}

}  // namespace

Status ValidateShardOptions(const ShardOptions& o) {
  if (o.fingerprint_version <= 0) {
    return Status::InvalidArgument("shard options: fingerprint_version must be set (positive)");
  }
  return ValidateConfigured(o);
}

StatusOr<ShardOptions> ShardOptionsFromConfig(const Config& config) {
  ShardOptions o;
  PS_ASSIGN_OR_RETURN(std::string mode, config.GetString("url.mode"));
  PS_ASSIGN_OR_RETURN(o.url_mode, ParseUrlMode(mode));
  PS_ASSIGN_OR_RETURN(o.url_ttl, config.GetDuration("url.ttl"));
  PS_ASSIGN_OR_RETURN(int64_t items, config.GetInt("url.expected_items"));
  if (items < 1) return OutOfRange("url.expected_items", "must be at least 1");
  o.url_expected_items = static_cast<uint64_t>(items);
  PS_ASSIGN_OR_RETURN(o.url_false_positive_rate, config.GetDouble("url.false_positive_rate"));
  PS_ASSIGN_OR_RETURN(o.url_bloom_generations,
                      GetIntIn(config, "url.bloom_generations", 1, kMaxBloomGenerations));
  PS_ASSIGN_OR_RETURN(std::string filter, config.GetString("url.filter"));
  PS_ASSIGN_OR_RETURN(o.url_filter, ParseUrlFilter(filter));
  PS_ASSIGN_OR_RETURN(o.exact_ttl, config.GetDuration("exact.ttl"));
  PS_ASSIGN_OR_RETURN(o.near_ttl, config.GetDuration("near.ttl"));
  PS_ASSIGN_OR_RETURN(o.near_max_distance,
                      GetIntIn(config, "near.max_distance", 0, NearLayout::kMaxDistance));
  PS_ASSIGN_OR_RETURN(o.near_tables, GetIntIn(config, "near.tables", 0, NearLayout::kMaxTables));
  PS_ASSIGN_OR_RETURN(o.minhash_slots, GetIntIn(config, "near.minhash_slots", 0, kMaxSketchSlots));
  PS_ASSIGN_OR_RETURN(o.minhash_bits, GetIntIn(config, "near.minhash_bits", 8, 32));
  // The engine lowers it to the least near.jaccard of any site's override.
  PS_ASSIGN_OR_RETURN(o.near_lsh_threshold, config.GetDouble("near.jaccard"));
  PS_RETURN_IF_ERROR(ValidateConfigured(o));
  return o;
}

StatusOr<StateEnvOptions> StateEnvOptionsFromConfig(const Config& config) {
  StateEnvOptions o;
  PS_ASSIGN_OR_RETURN(o.dir, config.GetString("state.dir"));
  if (o.dir.empty()) return OutOfRange("state.dir", "must not be empty");
  PS_ASSIGN_OR_RETURN(int cache_mb, GetIntIn(config, "state.block_cache_mb", 1, 1 << 22));
  o.block_cache_bytes = static_cast<uint64_t>(cache_mb) << 20;
  PS_ASSIGN_OR_RETURN(int buffer_mb, GetIntIn(config, "state.write_buffer_mb", 1, 1 << 22));
  o.write_buffer_bytes = static_cast<uint64_t>(buffer_mb) << 20;
  PS_ASSIGN_OR_RETURN(o.sync, config.GetBool("state.sync"));
  PS_ASSIGN_OR_RETURN(o.background_threads, GetIntIn(config, "state.background_threads", 1, 64));
  return o;
}

}  // namespace pagesieve::store
