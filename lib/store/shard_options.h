#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "common/status_or.h"
#include "common/types.h"
#include "store/time_decayed_filter.h"

namespace pagesieve {
class Config;
}

namespace pagesieve::store {

// How the URL store answers (url.mode).
enum class UrlMode {
  kExact,  // a Bloom hit is confirmed against an exact RocksDB entry
  kBloom,  // the filter alone answers: bounded false positives, no entries
};

// How each shard of a process behaves. Every shard of a process gets the same
// options; they come from the [url], [exact] and [near] configuration
// sections, except fingerprint_version, which the engine sets.
struct ShardOptions {
  UrlMode url_mode = UrlMode::kExact;
  Duration url_ttl = std::chrono::days(7);
  uint64_t url_expected_items = 10'000'000;
  double url_false_positive_rate = 0.01;
  int url_bloom_generations = 4;
  // url.filter: the structure of the URL store's filter (docs/bloom-filter.md).
  FilterKind url_filter = FilterKind::kFuse;

  Duration exact_ttl = std::chrono::days(30);

  Duration near_ttl = std::chrono::days(30);
  // The largest Hamming distance FindNear() may be asked for; the SimHash
  // tables are built for it and stored with the shard.
  int near_max_distance = 3;
  // Upper bound on the number of SimHash tables; 0 derives it from
  // near_max_distance (see simhash_tables.h).
  int near_tables = 0;
  // The MinHash sketches the near store's LSH bands cut (near.minhash_slots,
  // near.minhash_bits; 0 slots: no bands), and the Jaccard similarity the
  // bands are derived for (lsh_bands.h): the lowest near.jaccard of any site,
  // which the engine sets, as near_max_distance covers every override. The
  // bands live in memory only and are rebuilt at open, so changing these
  // needs no reset.
  int minhash_slots = 256;
  int minhash_bits = 8;
  double near_lsh_threshold = 0.8;

  // lib/fingerprint's kFingerprintVersion. Stored in a new shard; a shard
  // written under another version refuses to open. Must be positive.
  int fingerprint_version = 0;
};

// Checks ranges; the error names the configuration key at fault.
Status ValidateShardOptions(const ShardOptions& options);

// Reads [url], [exact] and [near] (fingerprint_version is left at 0 for the
// caller to set).
StatusOr<ShardOptions> ShardOptionsFromConfig(const Config& config);

// What all shards of one process share ([state]).
struct StateEnvOptions {
  std::string dir = "state";                   // one subdirectory per shard
  uint64_t block_cache_bytes = 1024ull << 20;  // shared by every shard
  uint64_t write_buffer_bytes = 256ull << 20;  // memtables of every shard
  bool sync = true;                            // fsync the WAL at each checkpoint
  int background_threads = 2;                  // flushes and compactions
};

StatusOr<StateEnvOptions> StateEnvOptionsFromConfig(const Config& config);

}  // namespace pagesieve::store
