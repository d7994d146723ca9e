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
  std::string sketch;  // an encoded MinHash sketch (see MakeSyntheticSketch)
  Origin origin;       // partition 0, offset i
};

// The fingerprint version the synthetic sketches claim: open shards for
// them with ShardOptions::fingerprint_version set to it, or the store
// stores their sketches without comparing them.
inline constexpr int kSyntheticFingerprintVersion = 1;
// The parameters of the synthetic sketches: the defaults of
// near.minhash_slots and near.minhash_bits (264 encoded bytes).
inline constexpr int kSyntheticSketchSlots = 256;
inline constexpr int kSyntheticSketchBits = 8;

// Record i, in one of `scopes` scopes (picked by hash), fetched at `t`.
// Realistic sizes: a UUID-like event id and a 60-80 byte URL.
SyntheticRecord MakeSyntheticRecord(uint64_t i, uint64_t scopes, EventTime t);
// The event time of record i when records are `spacing_ms` apart.
EventTime SyntheticRecordTime(uint64_t i, int64_t spacing_ms);
// A fingerprint `bits` bits away from `fp`, the bits chosen by `seed`.
uint64_t FlipBits(uint64_t fp, int bits, uint64_t seed);
// An encoded sketch (the form of fingerprint::MinHashSketch::Encode) of
// kSyntheticSketchSlots random slots, derived from `seed`: unrelated seeds
// agree in a slot once in 256, as sketches of unrelated pages do.
std::string MakeSyntheticSketch(uint64_t seed);
// A sketch of a near copy of the page of `sketch`: about a fifth of its
// slots changed (a Jaccard similarity near 0.8), never its first 8, so
// that it shares a band with `sketch` under any banding of at most 8 rows
// (25 x 8 at near.jaccard = 0.8) and others by chance.
std::string NearCopySketch(const std::string& sketch, uint64_t seed);

}  // namespace pagesieve::store::testing
