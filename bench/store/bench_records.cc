#include "bench_records.h"

#include <bit>

namespace pagesieve::store::bench {
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

uint64_t Mix(uint64_t x) {  // splitmix64
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

EventTime RecordTime(uint64_t i, int64_t spacing_ms) {
  return EventTimeFromMillis(1'700'000'000'000 + static_cast<int64_t>(i) * spacing_ms);
}

BenchRecord MakeRecord(uint64_t i, uint64_t scopes, EventTime t) {
  BenchRecord r;
  const uint64_t site = scopes <= 1 ? 0 : Mix(i ^ 0x5c09e) % scopes;
  r.scope = "site-" + std::to_string(site) + ".example";
  r.url = DigestFrom(Mix(i), Mix(i + (1ull << 50)));
  r.content = DigestFrom(Mix(i + (2ull << 50)), Mix(i + (3ull << 50)));
  r.simhash = Mix(i + (4ull << 50));
  // Realistic sizes: a UUID-like event id and a 60-80 byte URL.
  r.origin.event_id = "0f8e2a6c-" + std::to_string(Mix(i + (5ull << 50)) % 100000000000ull);
  r.origin.url =
      "https://" + r.scope + "/news/2026/11/20/article-" + std::to_string(i) + "-some-title-words";
  r.origin.event_time = t;
  r.origin.partition = PartitionId(0);
  r.origin.offset = Offset(static_cast<int64_t>(i));
  return r;
}

uint64_t Flip(uint64_t fp, int bits, uint64_t seed) {
  uint64_t mask = 0;
  for (uint64_t k = 0; std::popcount(mask) < bits; ++k) mask |= uint64_t{1} << (Mix(seed + k) % 64);
  return fp ^ mask;
}

}  // namespace pagesieve::store::bench
