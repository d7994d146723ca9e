#include "store/bloom/bloom_math.h"

#include <algorithm>
#include <cmath>

namespace pagesieve::store::bloom {
namespace {

// Probability that one key leaves a given bit of its block clear.
double BitSurvivesOneKey(int num_probes) { return std::pow(1.0 - 1.0 / kBlockBits, num_probes); }

}  // namespace

double StandardBloomBitsPerKey(double false_positive_rate) {
  return -std::log2(false_positive_rate) / std::log(2.0);
}

BlockRateTable::BlockRateTable(int num_probes)
    : num_probes_(num_probes), occupied_(num_probes + 1) {
  // How many distinct bits k uniform probes hit.
  distinct_.assign(num_probes + 1, 0.0);
  distinct_[0] = 1.0;
  for (int probe = 0; probe < num_probes; ++probe) {
    for (int d = probe + 1; d >= 1; --d) {
      distinct_[d] =
          distinct_[d] * d / kBlockBits + distinct_[d - 1] * (kBlockBits - d + 1) / kBlockBits;
    }
    distinct_[0] = 0.0;
  }
  for (int d = 0; d <= num_probes; ++d) {
    occupied_[d].assign(d + 1, 0.0);
    occupied_[d][0] = 1.0;
  }
  rate_.push_back(0.0);  // an empty block reports nothing
}

// One more key: k more throws into the block. For each d, tracks how many of
// d given bits are set; the rate for j keys is the chance that all d are,
// weighted by the chance that a query's probes are d distinct bits.
void BlockRateTable::Extend() {
  for (int throws = 0; throws < num_probes_; ++throws) {
    for (int d = 1; d <= num_probes_; ++d) {
      std::vector<double>& s = occupied_[d];
      for (int c = d; c >= 1; --c) {
        s[c] = s[c] * (kBlockBits - (d - c)) / kBlockBits + s[c - 1] * (d - c + 1) / kBlockBits;
      }
      s[0] *= static_cast<double>(kBlockBits - d) / kBlockBits;
    }
  }
  double rate = 0.0;
  for (int d = 1; d <= num_probes_; ++d) rate += distinct_[d] * occupied_[d][d];
  rate_.push_back(rate);
}

// Beyond the point where a block of j keys reports everything, the table
// stops growing and answers 1. Rounding can keep the sum a few ulps under 1,
// hence the tolerance; and 2^16 keys in one block leave each bit clear with
// probability e^-128, so the table never needs to go further.
double BlockRateTable::At(long keys_in_block) {
  constexpr double kCertain = 1.0 - 1e-12;
  constexpr size_t kMaxKeys = size_t{1} << 16;
  while (static_cast<long>(rate_.size()) <= keys_in_block && rate_.back() < kCertain &&
         rate_.size() < kMaxKeys) {
    Extend();
  }
  if (keys_in_block < static_cast<long>(rate_.size())) return rate_[keys_in_block];
  return 1.0;
}

// Sums P(j keys in the block) * rate(j) outward from the mode until the
// Poisson terms stop mattering (12 standard deviations), each term from its
// neighbour so that only one lgamma is needed.
double BlockedFalsePositiveRate(double keys_per_block, BlockRateTable& table) {
  if (!(keys_per_block > 0)) return 0.0;
  const double lambda = keys_per_block;
  const double spread = 12.0 * std::sqrt(lambda) + 12.0;
  if (table.At(static_cast<long>(std::max(0.0, lambda - spread))) == 1.0) return 1.0;
  const auto mode = static_cast<long>(std::floor(lambda));
  const double mode_pmf = std::exp(mode * std::log(lambda) - lambda - std::lgamma(mode + 1.0));
  double sum = mode_pmf * table.At(mode);
  double pmf = mode_pmf;
  for (long j = mode + 1; j <= mode + spread; ++j) {
    pmf *= lambda / static_cast<double>(j);
    sum += pmf * table.At(j);
  }
  pmf = mode_pmf;
  for (long j = mode - 1; j >= 0 && j >= mode - spread; --j) {
    pmf *= static_cast<double>(j + 1) / lambda;
    sum += pmf * table.At(j);
  }
  return std::min(sum, 1.0);
}

double BlockedFalsePositiveRate(double keys_per_block, int num_probes) {
  BlockRateTable table(num_probes);
  return BlockedFalsePositiveRate(keys_per_block, table);
}

// E[1 - q^j] for Poisson j is 1 - exp(-lambda (1 - q)).
double BlockedFillRatio(double keys_per_block, int num_probes) {
  if (!(keys_per_block > 0)) return 0.0;
  return -std::expm1(-keys_per_block * (1.0 - BitSurvivesOneKey(num_probes)));
}

double KeysPerBlockForFill(double fill_ratio, int num_probes) {
  if (!(fill_ratio > 0)) return 0.0;
  constexpr double kSaturated = 1e9;
  if (fill_ratio >= 1.0) return kSaturated;
  return std::min(kSaturated, -std::log1p(-fill_ratio) / (1.0 - BitSurvivesOneKey(num_probes)));
}

double UnionFalsePositiveRate(double each, int filters) {
  return -std::expm1(filters * std::log1p(-each));
}

double PerFilterRateForUnion(double total, int filters) {
  return -std::expm1(std::log1p(-total) / filters);
}

double GenerationalBloomBitsPerLiveKey(double false_positive_rate, int generations) {
  const int slots = generations + 1;
  return static_cast<double>(slots) / generations *
         StandardBloomBitsPerKey(PerFilterRateForUnion(false_positive_rate, slots));
}

double BestGenerationalBloomBitsPerLiveKey(double false_positive_rate) {
  // (1 + 1/G)(L + log2(G + 1)) with L = -log2(p) has its minimum where
  // G = ln 2 (L + log2(G + 1)): about 7 at 1 %, under 800 for any rate a
  // double can hold.
  double best = GenerationalBloomBitsPerLiveKey(false_positive_rate, 1);
  for (int g = 2; g <= 4096; ++g) {
    best = std::min(best, GenerationalBloomBitsPerLiveKey(false_positive_rate, g));
  }
  return best;
}

}  // namespace pagesieve::store::bloom
