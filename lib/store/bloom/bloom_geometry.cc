#include "store/bloom/bloom_geometry.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "store/bloom/bloom_math.h"

namespace pagesieve::store::bloom {
namespace {

// The largest load (keys per block) at which one generation with
// `num_probes` probes stays at `target`. The rate grows with the load:
// doubling brackets it (so the table only grows as far as needed), then
// bisection finds it.
double MaxKeysPerBlock(double target, int num_probes) {
  BlockRateTable table(num_probes);
  double lo = 0.0;
  double hi = 1.0;
  while (hi < kBlockBits && BlockedFalsePositiveRate(hi, table) <= target) {
    lo = hi;
    hi *= 2;
  }
  for (int i = 0; i < 40; ++i) {  // to 2^-40 of the bracket
    const double mid = 0.5 * (lo + hi);
    (BlockedFalsePositiveRate(mid, table) <= target ? lo : hi) = mid;
  }
  return lo;
}

struct Choice {
  int num_probes = 0;
  uint64_t blocks = 0;
};

// The best probe count lies just under log2(1/target), the standard
// filter's optimum: a blocked filter prefers fewer probes, the more so the
// lower the rate (1 fewer at 2e-3, 5 fewer at 2e-7). Searching that window
// only keeps Create() fast.
Choice BestChoice(double target, uint64_t keys) {
  const int standard = static_cast<int>(std::ceil(-std::log2(target)));
  const int from = std::max(1, standard * 7 / 10 - 1);
  const int to = std::min(kMaxProbes, standard + 1);
  Choice best;
  for (int k = from; k <= to; ++k) {
    const double load = MaxKeysPerBlock(target, k);
    if (load <= 0) continue;
    const double blocks = std::ceil(static_cast<double>(keys) / load);
    if (blocks >= static_cast<double>(kMaxBlocksPerSlot) * 2) continue;
    const auto n = std::max<uint64_t>(1, static_cast<uint64_t>(blocks));
    if (best.num_probes == 0 || n < best.blocks) best = {k, n};
  }
  return best;
}

Status Corrupt(std::string_view what) {
  return Status::Corruption("bloom geometry: " + std::string(what));
}

}  // namespace

BlockedSizing SizeBlockedFilter(double target, uint64_t keys) {
  const Choice c = BestChoice(target, keys);
  return {c.num_probes, c.blocks};
}

double BloomGeometry::DesignFalsePositiveRate() const {
  const double load = static_cast<double>(keys_per_generation) / blocks_per_slot();
  return UnionFalsePositiveRate(BlockedFalsePositiveRate(load, num_probes), slots);
}

Duration GenerationWidth(const BloomOptions& options) {
  const int64_t ttl = options.ttl.count();
  return Duration((ttl + options.generations - 1) / options.generations);
}

uint64_t KeysPerGeneration(const BloomOptions& options) {
  const double share = static_cast<double>(GenerationWidth(options).count()) /
                       static_cast<double>(options.ttl.count());
  return std::max<uint64_t>(
      1, static_cast<uint64_t>(std::ceil(share * static_cast<double>(options.expected_items))));
}

StatusOr<BloomGeometry> ComputeGeometry(const BloomOptions& options) {
  PS_RETURN_IF_ERROR(ValidateBloomOptions(options));
  BloomGeometry g;
  g.slots = options.generations + 1;
  g.page_bytes = static_cast<uint32_t>(options.page_bytes);
  g.generation_width = GenerationWidth(options);
  g.keys_per_generation = KeysPerGeneration(options);
  const double target = PerFilterRateForUnion(options.false_positive_rate * kDesignMargin, g.slots);
  const Choice choice = BestChoice(target, g.keys_per_generation);
  if (choice.num_probes == 0) {
    return Status::ResourceExhausted("bloom: no geometry reaches the false-positive rate");
  }
  g.num_probes = choice.num_probes;
  g.groups = (choice.blocks + g.blocks_per_page() - 1) / g.blocks_per_page();
  if (g.blocks_per_slot() > kMaxBlocksPerSlot || g.page_count() > kMaxPages ||
      g.bit_bytes() > kMaxBitBytes) {
    return Status::ResourceExhausted("bloom: " + std::to_string(options.expected_items) +
                                     " items at rate " +
                                     std::to_string(options.false_positive_rate) +
                                     " need more than the 256 GiB, 2^32 "
                                     "blocks per generation or 2^32 pages one filter may have");
  }
  return g;
}

Status ValidateGeometry(const BloomOptions& options, const BloomGeometry& g) {
  if (g.slots != options.generations + 1) return Corrupt("slot count does not match generations");
  if (g.num_probes < 1 || g.num_probes > kMaxProbes) return Corrupt("probe count out of range");
  if (g.page_bytes != options.page_bytes) return Corrupt("page size does not match the options");
  if (g.groups < 1 || g.groups > kMaxPages) return Corrupt("group count out of range");
  if (g.blocks_per_slot() > kMaxBlocksPerSlot || g.page_count() > kMaxPages ||
      g.bit_bytes() > kMaxBitBytes) {
    return Corrupt("size beyond the limits");
  }
  if (g.generation_width != GenerationWidth(options)) return Corrupt("generation width");
  if (g.keys_per_generation != KeysPerGeneration(options)) return Corrupt("design load");
  return Status::Ok();
}

}  // namespace pagesieve::store::bloom
