#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "common/status.h"
#include "common/types.h"

namespace pagesieve::store {

// What a TimeDecayedBloom is built for. The shard fills it from the [url]
// configuration section (url.expected_items, url.false_positive_rate,
// url.bloom_generations, url.ttl); docs/bloom-filter.md explains each trade.
struct BloomOptions {
  // Distinct keys inserted per `ttl` of event time (the live set the filter
  // must answer for). A generation is sized for its share of them.
  uint64_t expected_items = 10'000'000;
  // The false-positive rate the filter must measure at or below when every
  // generation holds its share of expected_items.
  double false_positive_rate = 0.01;
  // G: the TTL is cut into G generations of ttl / G (rounded up to a whole
  // millisecond). A key is forgotten between ttl and ttl + ttl / G after it
  // was last inserted. Memory holds G + 1 generations.
  int generations = 4;
  // How long a key stays live after it was last inserted, in event time.
  Duration ttl = std::chrono::days(7);
  // Bytes of bits per persisted page (a power of two, 64 to 1 MiB). Each
  // insert dirties one page; a checkpoint writes every dirty page.
  size_t page_bytes = 128;
};

// Limits Create() and Restore() enforce. They keep the arithmetic in 64 bits
// and page ids in 32, and refuse sizes no shard should ask for.
inline constexpr uint64_t kMaxBloomExpectedItems = uint64_t{1} << 40;
inline constexpr double kMinBloomFalsePositiveRate = 1e-6;
inline constexpr double kMaxBloomFalsePositiveRate = 0.5;
inline constexpr int kMaxBloomGenerations = 64;
inline constexpr size_t kMinBloomPageBytes = 64;
inline constexpr size_t kMaxBloomPageBytes = size_t{1} << 20;
inline constexpr Duration kMaxBloomTtl = std::chrono::days(100 * 366);

// Checks every field against the limits above; the error names the field.
Status ValidateBloomOptions(const BloomOptions& options);

}  // namespace pagesieve::store
