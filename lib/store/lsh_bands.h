#pragma once

#include "common/status_or.h"

namespace pagesieve::store {

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
