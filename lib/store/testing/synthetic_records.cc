#include "store/testing/synthetic_records.h"

#include <bit>

#include "common/split_mix64.h"

namespace pagesieve::store::testing {
namespace {

Digest128 DigestFrom(uint64_t a, uint64_t b) {
  Digest128 d;
  for (int j = 0; j < 8; ++j) {
    d.bytes[j] = static_cast<uint8_t>(a >> (8 * j));
    d.bytes[8 + j] = static_cast<uint8_t>(b >> (8 * j));
  }
  return d;
}

}  // namespace

EventTime SyntheticRecordTime(uint64_t i, int64_t spacing_ms) {
  return EventTimeFromMillis(1'700'000'000'000 + static_cast<int64_t>(i) * spacing_ms);
}

SyntheticRecord MakeSyntheticRecord(uint64_t i, uint64_t scopes, EventTime t) {
  SyntheticRecord r;
  const uint64_t site = scopes <= 1 ? 0 : SplitMix64(i ^ 0x5c09e) % scopes;
  r.scope = "site-" + std::to_string(site) + ".example";
  r.url = DigestFrom(SplitMix64(i), SplitMix64(i + (1ull << 50)));
  r.content = DigestFrom(SplitMix64(i + (2ull << 50)), SplitMix64(i + (3ull << 50)));
  r.simhash = SplitMix64(i + (4ull << 50));
  r.origin.event_id = "0f8e2a6c-" + std::to_string(SplitMix64(i + (5ull << 50)) % 100000000000ull);
  r.origin.url =
      "https://" + r.scope + "/news/2026/11/20/article-" + std::to_string(i) + "-some-title-words";
  r.origin.event_time = t;
  r.origin.partition = PartitionId(0);
  r.origin.offset = Offset(static_cast<int64_t>(i));
  return r;
}

uint64_t FlipBits(uint64_t fp, int bits, uint64_t seed) {
  uint64_t mask = 0;
  for (uint64_t k = 0; std::popcount(mask) < bits; ++k) {
    mask |= uint64_t{1} << (SplitMix64(seed + k) % 64);
  }
  return fp ^ mask;
}

}  // namespace pagesieve::store::testing
