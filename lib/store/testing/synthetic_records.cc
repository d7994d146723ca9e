#include "store/testing/synthetic_records.h"

#include <bit>

#include "common/split_mix64.h"
#include "store/lsh_bands.h"

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
  r.sketch = MakeSyntheticSketch(i + (6ull << 50));
  r.origin.event_id = "0f8e2a6c-" + std::to_string(SplitMix64(i + (5ull << 50)) % 100000000000ull);
  r.origin.url =
      "https://" + r.scope + "/news/2026/11/20/article-" + std::to_string(i) + "-some-title-words";
  r.origin.event_time = t;
  r.origin.partition = PartitionId(0);
  r.origin.offset = Offset(static_cast<int64_t>(i));
  return r;
}

std::string MakeSyntheticSketch(uint64_t seed) {
  std::string s;
  s.reserve(kSketchHeaderBytes + kSyntheticSketchSlots);
  s.push_back(static_cast<char>(kSyntheticFingerprintVersion));
  s.push_back(static_cast<char>(kSyntheticSketchBits));
  s.push_back(static_cast<char>(kSyntheticSketchSlots & 0xff));
  s.push_back(static_cast<char>(kSyntheticSketchSlots >> 8));
  s.append(4, '\0');  // set size: unknown
  for (int j = 0; j < kSyntheticSketchSlots; j += 8) {
    const uint64_t v = SplitMix64(seed * 1000 + static_cast<uint64_t>(j));
    for (int b = 0; b < 8; ++b) s.push_back(static_cast<char>(v >> (8 * b)));
  }
  return s;
}

std::string NearCopySketch(const std::string& sketch, uint64_t seed) {
  std::string s = sketch;
  constexpr size_t kKept = 8;
  for (size_t j = kSketchHeaderBytes + kKept; j < s.size(); ++j) {
    const uint64_t h = SplitMix64(seed ^ (j << 32));
    if (h % 5 == 0) s[j] = static_cast<char>(s[j] ^ (1 + (h >> 8) % 255));
  }
  return s;
}

uint64_t FlipBits(uint64_t fp, int bits, uint64_t seed) {
  uint64_t mask = 0;
  for (uint64_t k = 0; std::popcount(mask) < bits; ++k) {
    mask |= uint64_t{1} << (SplitMix64(seed + k) % 64);
  }
  return fp ^ mask;
}

}  // namespace pagesieve::store::testing
