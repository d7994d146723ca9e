#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::store {

// The stored form of a MinHash sketch, as fingerprint::MinHashSketch::Encode
// writes it: [fingerprint version 1][bits 1][slots 2, little-endian][set
// size 4, little-endian], then
// each slot in bits / 8 little-endian bytes, and from fingerprint version 4
// on, for a page with a title, [title tokens n, plus 128 when the title
// counts, 1][n × 4 bytes] (the store never reads them: band keys are the
// slots'). The store reads
// sketches in this form only; it may not depend on lib/fingerprint.
struct SketchHeader {
  int version = 0;
  int bits = 0;
  int slots = 0;
  // From fingerprint version 3 on: [set size 4, little-endian] follows the
  // slot count, the distinct features the sketch was made of (0: unknown).
  uint32_t set_size = 0;
};
inline constexpr size_t kSketchHeaderBytes = 8;
// The slot counts lib/fingerprint computes sketches of (MinHashSketch).
inline constexpr int kMinSketchSlots = 16;
inline constexpr int kMaxSketchSlots = 1024;

// The header of an encoded sketch. InvalidArgument when the bytes cannot be
// one: shorter than a header, a width other than 8, 16 or 32 bits, no
// slots, or a length other than the header and a title of 1 to 127 tokens
// say.
StatusOr<SketchHeader> ParseSketchHeader(std::string_view encoded);

// The seed of band 0's hash: fingerprint::kMinHashSeed ("minhash!"), copied
// because lib/store does not depend on lib/fingerprint. Band keys only need
// to agree with each other (the store computes every one), but keeping the
// fingerprint module's seed makes them the keys it documents.
inline constexpr uint64_t kBandSeed = 0x6d696e6861736821ULL;

// The LSH banding of MinHash sketches for one Jaccard threshold t, derived
// as NearLayout derives the SimHash tables from near.max_distance.
//
// The first bands * rows slots of a sketch are cut into `bands` bands of
// `rows` consecutive slots; a page is a candidate for another when all rows
// of at least one band agree. A slot agrees with probability
// p = J + (1 - J) / 2^bits for pages of Jaccard similarity J (b-bit slots
// also agree by chance), so a pair is a candidate with probability
// 1 - (1 - p^rows)^bands: an S-curve rising around t.
//
// Derivation: the most rows (the steepest curve, so the fewest candidates
// below t) for which some band count within the sketch reaches the wanted
// miss rate at t, and the fewest bands that do (each band is one index
// entry per page). Immutable; thread-safe.
class LshBands {
 public:
  // A pair exactly at the threshold is missed at most this often.
  static constexpr double kDefaultMaxMiss = 0.01;

  // `slots` and `bits` describe the sketches (near.minhash_slots,
  // near.minhash_bits); `threshold` is near.jaccard, in (0, 1]; `max_miss`
  // in (0, 1). InvalidArgument when out of range or when no banding of the
  // slots reaches max_miss at the threshold.
  static StatusOr<LshBands> Create(int slots, int bits, double threshold,
                                   double max_miss = kDefaultMaxMiss);
  // Exactly these bands and rows (as stored in a shard's metadata).
  static StatusOr<LshBands> FromBandsRows(int slots, int bits, int bands, int rows);

  int slots() const { return slots_; }
  int bits() const { return bits_; }
  int bands() const { return bands_; }
  int rows() const { return rows_; }

  // The chance that a pair of Jaccard similarity `jaccard` shares a band.
  double CandidateProbability(double jaccard) const;

  // Whether `encoded` is a well-formed sketch of exactly these slots and
  // bits. Sketches of other parameters are never compared: their slots
  // mean other things.
  bool Fits(std::string_view encoded) const;
  // The band keys of an encoded sketch into `out` (resized to bands()):
  // band i is XXH3-64, seeded with kBandSeed + i, of the encoded bytes of
  // slots [i * rows, (i + 1) * rows). False, and `out` empty, unless the
  // sketch Fits(). Equal slots give equal keys; unequal ones collide with
  // chance 2^-64.
  bool Keys(std::string_view encoded, std::vector<uint64_t>* out) const;
  // Whether two sketches that both Fit() agree in every row of some band,
  // compared byte for byte (exact, unlike keys). False when either does not fit.
  bool ShareBand(std::string_view a, std::string_view b) const;

 private:
  LshBands(int slots, int bits, int bands, int rows)
      : slots_(slots), bits_(bits), bands_(bands), rows_(rows) {}

  int slots_ = 0;
  int bits_ = 0;
  int bands_ = 0;
  int rows_ = 0;
};

// The chance that one slot of two b-bit sketches agrees: J + (1 - J) 2^-bits.
double SlotAgreement(double jaccard, int bits);

// 1 - (1 - p^rows)^bands: the chance that at least one of `bands` bands of
// `rows` slots agrees entirely, each slot agreeing with probability p.
double BandedCandidateProbability(double p, int bands, int rows);

}  // namespace pagesieve::store
