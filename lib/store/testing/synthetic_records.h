#pragma once

#include <cstdint>
#include <string>

#include "common/digest.h"
#include "common/types.h"
#include "store/origin.h"

namespace pagesieve::store::testing {

// What the engine writes to a shard for one unique page, made up: every
// field of record i derives from i, so any record can be made again (to look
// it up, or to check what a checkpoint must hold) without storing it. The
// shard benchmark and the store's crash test share it.
struct SyntheticRecord {
  std::string scope;
  Digest128 url;
  Digest128 content;
  uint64_t simhash = 0;
  Origin origin;  // partition 0, offset i
};

// Record i, in one of `scopes` scopes (picked by hash), fetched at `t`.
// Realistic sizes: a UUID-like event id and a 60-80 byte URL.
SyntheticRecord MakeSyntheticRecord(uint64_t i, uint64_t scopes, EventTime t);
// The event time of record i when records are `spacing_ms` apart.
EventTime SyntheticRecordTime(uint64_t i, int64_t spacing_ms);
// A fingerprint `bits` bits away from `fp`, the bits chosen by `seed`.
uint64_t FlipBits(uint64_t fp, int bits, uint64_t seed);

}  // namespace pagesieve::store::testing
