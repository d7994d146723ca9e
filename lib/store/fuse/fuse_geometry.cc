#include "store/fuse/fuse_geometry.h"

#include <cmath>
#include <string>

#include "store/bloom/bloom_geometry.h"
#include "store/bloom/bloom_math.h"
#include "store/fuse/binary_fuse.h"

namespace pagesieve::store::fuse {

double FuseGeometry::DesignFalsePositiveRate() const {
  const double load = static_cast<double>(keys_per_generation) / static_cast<double>(open_blocks);
  return std::ldexp(1.0, -fingerprint_bits) + bloom::BlockedFalsePositiveRate(load, open_probes);
}

StatusOr<FuseGeometry> ComputeFuseGeometry(const BloomOptions& options) {
  PS_RETURN_IF_ERROR(ValidateBloomOptions(options));
  if (options.generations != kFuseGenerations) {
    return Status::InvalidArgument("fuse: generations must be " + std::to_string(kFuseGenerations));
  }
  FuseGeometry best;
  best.generation_width = bloom::GenerationWidth(options);
  best.keys_per_generation = bloom::KeysPerGeneration(options);
  const double n_g = static_cast<double>(best.keys_per_generation);
  const double target = options.false_positive_rate * bloom::kDesignMargin;
  double best_bits = 0;
  // The sealed filter takes 2^-f of the rate, the open one the rest: a
  // wider fingerprint costs every sealed key a bit, a narrower one makes
  // the open filter (1/G of the keys) pay more per key.
  for (int f = kMinFingerprintBits; f <= kMaxFingerprintBits; ++f) {
    const double open_rate = target - std::ldexp(1.0, -f);
    if (open_rate < target * 0.05) continue;
    const bloom::BlockedSizing open = bloom::SizeBlockedFilter(open_rate, best.keys_per_generation);
    if (open.num_probes == 0) continue;
    const double bits =
        kFuseSlotsPerKey * f * n_g * options.generations + 512.0 * static_cast<double>(open.blocks);
    if (best.fingerprint_bits == 0 || bits < best_bits) {
      best_bits = bits;
      best.fingerprint_bits = f;
      best.open_probes = open.num_probes;
      best.open_blocks = open.blocks;
    }
  }
  if (best.fingerprint_bits == 0) {
    return Status::ResourceExhausted("fuse: no geometry reaches the false-positive rate");
  }
  return best;
}

Status ValidateFuseGeometry(const BloomOptions& options, const FuseGeometry& g) {
  // Checked for consistency, not re-derived: a later change to the sizing
  // must not make stored filters unreadable.
  if (g.fingerprint_bits < kMinFingerprintBits || g.fingerprint_bits > kMaxFingerprintBits ||
      g.open_probes < 1 || g.open_probes > bloom::kMaxProbes || g.open_blocks == 0 ||
      g.open_blocks > bloom::kMaxBlocksPerSlot ||
      g.generation_width != bloom::GenerationWidth(options) ||
      g.keys_per_generation != bloom::KeysPerGeneration(options)) {
    return Status::Corruption("fuse geometry: inconsistent with its options");
  }
  return Status::Ok();
}

}  // namespace pagesieve::store::fuse
