#pragma once

#include <vector>

namespace pagesieve::store::bloom {

// The false-positive arithmetic of a cache-line-blocked Bloom filter: every
// key sets `num_probes` bits (chosen independently, so two may coincide) in
// one block of kBlockBits bits, the block chosen by hash. The number of keys
// that land in one block is Poisson with mean `keys_per_block`, which is what
// makes a blocked filter less accurate than a standard one of the same size:
// crowded blocks answer "maybe" far more often than sparse ones.

inline constexpr int kBlockBits = 512;  // one 64-byte cache line

// -log2(p) / ln 2: bits per key of a standard (unblocked) Bloom filter with
// the best number of probes for rate p. The yardstick for memory.
double StandardBloomBitsPerKey(double false_positive_rate);

// The exact probability that a key never inserted is reported present by a
// block holding j keys, for j = 0, 1, 2, ...: the chance that every distinct
// bit among the key's k probes is among the bits set by j * k uniform
// throws. The textbook (1 - (1 - 1/B)^jk)^k is only a lower bound, and at
// B = 512 it is 1 % (k = 5) to 2 % (k = 9) low, more for larger k; this
// table is what the measured rates match (bloom_math_test). Computed by
// dynamic programming, extended on demand; not thread-safe.
class BlockRateTable {
 public:
  explicit BlockRateTable(int num_probes);
  int num_probes() const { return num_probes_; }
  double At(long keys_in_block);

 private:
  void Extend();

  int num_probes_;
  std::vector<double> distinct_;               // P(the k probes hit d distinct bits)
  std::vector<std::vector<double>> occupied_;  // [d][c]: c of d given bits set so far
  std::vector<double> rate_;                   // rate_[j]: the answer for j keys
};

// The probability that a key never inserted is reported present, for a
// blocked filter loaded with `keys_per_block` keys per block on average
// (Poisson, as keys land in blocks at random).
double BlockedFalsePositiveRate(double keys_per_block, BlockRateTable& table);
double BlockedFalsePositiveRate(double keys_per_block, int num_probes);

// The expected fraction of bits set at that load, and its inverse: the load
// that explains an observed fill (duplicate inserts set no new bits, so this
// counts distinct keys). Fills of 1 or more give a very large load.
double BlockedFillRatio(double keys_per_block, int num_probes);
double KeysPerBlockForFill(double fill_ratio, int num_probes);

// The rate at which at least one of `filters` independent filters, each
// with rate `each`, reports a key: 1 - (1 - each)^filters.
double UnionFalsePositiveRate(double each, int filters);

// The inverse: the rate each filter may have so that their union stays at
// `total`.
double PerFilterRateForUnion(double total, int filters);

// The fewest bits per live key that any filter of G time generations can
// spend at rate p, however good each generation's Bloom filter: just before
// the oldest generation expires, G + 1 generations hold G + 1 generations'
// worth of keys (the oldest can only be cleared whole), and a lookup ORs
// them, so each must reach PerFilterRateForUnion(p, G + 1) (equal shares
// are the cheapest split, -log f being convex). With standard Bloom filters
// at that rate: (G + 1) / G * StandardBloomBitsPerKey(that rate). At 1 % it
// is 16.2 bits at G = 4 and at least 15.9 for any G, against 9.6 for an
// undecayed filter: the yardstick for the URL filter's memory
// (docs/bloom-filter.md).
double GenerationalBloomBitsPerLiveKey(double false_positive_rate, int generations);
// The least of the above over every generation count G >= 1.
double BestGenerationalBloomBitsPerLiveKey(double false_positive_rate);

}  // namespace pagesieve::store::bloom
