#pragma once

#include <cstdint>
#include <string>

#include "common/digest.h"
#include "common/types.h"
#include "store/origin.h"

namespace pagesieve::store::bench {

// The synthetic record i of the shard benchmark: every field derives from i,
// so any record can be regenerated (to look it up again) without storing it.
struct BenchRecord {
  std::string scope;
  Digest128 url;
  Digest128 content;
  uint64_t simhash = 0;
  Origin origin;
};

uint64_t Mix(uint64_t x);
// Record i of a shard with `scopes` scopes, fetched at `t`.
BenchRecord MakeRecord(uint64_t i, uint64_t scopes, EventTime t);
// The event time of record i when records are `spacing_ms` apart.
EventTime RecordTime(uint64_t i, int64_t spacing_ms);
// A fingerprint `bits` bits away from `fp`, the bits chosen by `seed`.
uint64_t Flip(uint64_t fp, int bits, uint64_t seed);

}  // namespace pagesieve::store::bench
