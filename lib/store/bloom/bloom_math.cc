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

// Sums, over the number j of keys in the probed block, P(j) times the chance
// that all probes hit set bits: (1 - q^j)^k with q = (1 - 1/B)^k. Terms run
// outward from the mode until they stop mattering (at most 12 standard
// deviations out), each from its neighbour, so the sum costs a few hundred
// multiplications and one lgamma: sizing calls it thousands of times.
double BlockedFalsePositiveRate(double keys_per_block, int num_probes) {
  if (!(keys_per_block > 0)) return 0.0;
  const double lambda = keys_per_block;
  const double q = BitSurvivesOneKey(num_probes);
  const auto mode = static_cast<long>(std::floor(lambda));
  const double spread = 12.0 * std::sqrt(lambda) + 12.0;
  const double mode_pmf = std::exp(mode * std::log(lambda) - lambda - std::lgamma(mode + 1.0));
  auto term = [&](long j, double pmf) {
    return pmf * std::pow(1.0 - std::pow(q, static_cast<double>(j)), num_probes);
  };
  double sum = term(mode, mode_pmf);
  double pmf = mode_pmf;
  for (long j = mode + 1; j <= mode + spread; ++j) {
    pmf *= lambda / static_cast<double>(j);
    sum += term(j, pmf);
  }
  pmf = mode_pmf;
  for (long j = mode - 1; j >= 0 && j >= mode - spread; --j) {
    pmf *= static_cast<double>(j + 1) / lambda;
    sum += term(j, pmf);
  }
  return std::min(sum, 1.0);
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

}  // namespace pagesieve::store::bloom
