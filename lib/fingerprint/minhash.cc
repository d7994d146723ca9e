#include "fingerprint/minhash.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace pagesieve::fingerprint {
namespace {

constexpr uint64_t kEmpty = std::numeric_limits<uint64_t>::max();

// A bijective 64-bit mixer (the SplitMix64 finalizer): every input bit
// moves every output bit, so the slot (high bits) and the value competing
// for its minimum are independent of how the shingle hash was made.
// Bijective, so distinct shingles never collide here.
constexpr uint64_t Mix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Maps the high 32 bits of `h` onto [0, slots) without a division.
inline size_t SlotOf(uint64_t h, size_t slots) { return ((h >> 32) * slots) >> 32; }

// Probes of one empty slot before densification gives up on random probes
// and takes the next non-empty slot to the right. With the default 256
// slots and the fewest shingles allowed (32, so about 30 non-empty slots),
// a slot needs more than 128 probes with probability (226/256)^128 ≈ 1e-7;
// the fallback only bounds the worst case: slots * (kMaxProbes + slots).
constexpr uint32_t kMaxProbes = 128;

// Distinct from kMinHashSeed so that the probe sequences are unrelated to
// the shingles' slots.
constexpr uint64_t kProbeSeed = kMinHashSeed ^ 0x5deece66dULL;

}  // namespace

MinHasher::MinHasher(MinHashOptions options) : options_(options) {
  const bool off = options_.slots == 0;
  const bool valid = options_.slots >= MinHashSketch::kMinSlots &&
                     options_.slots <= MinHashSketch::kMaxSlots &&
                     MinHashSketch::ValidBits(options_.bits);
  if (!off && !valid) {
    std::fprintf(stderr, "pagesieve: bug: MinHasher with %d slots of %d bits\n", options_.slots,
                 options_.bits);
    std::abort();
  }
}

std::optional<MinHashSketch> MinHasher::Sketch(std::span<const uint64_t> sorted_shingles) {
  assert(std::is_sorted(sorted_shingles.begin(), sorted_shingles.end()));
  const size_t slots = static_cast<size_t>(options_.slots);
  if (slots == 0 || sorted_shingles.empty()) return std::nullopt;
  mins_.assign(slots, kEmpty);
  uint32_t distinct = 0;
  uint64_t previous = ~sorted_shingles.front();  // differs from the first shingle
  for (uint64_t shingle : sorted_shingles) {
    // min() is idempotent, so duplicates change nothing; skipping them only
    // saves the mix and counts distinct shingles.
    if (shingle == previous) continue;
    previous = shingle;
    ++distinct;
    const uint64_t h = Mix64(shingle ^ kMinHashSeed);
    uint64_t& slot = mins_[SlotOf(h, slots)];
    slot = std::min(slot, h);
  }
  if (distinct < std::max<uint32_t>(options_.min_shingles, 1)) return std::nullopt;

  std::vector<uint32_t> values(slots);
  Densify(&values);
  return MinHashSketch::Create(options_.bits, std::move(values), distinct).value();
}

void MinHasher::Densify(std::vector<uint32_t>* values) const {
  const size_t slots = mins_.size();
  const uint64_t mask = options_.bits >= 32 ? 0xffffffffULL : (uint64_t{1} << options_.bits) - 1;
  for (size_t i = 0; i < slots; ++i) {
    uint64_t donor = mins_[i];
    // The probe sequence depends only on the slot, never on the set, so two
    // sets with the same non-empty slots borrow from the same donors: the
    // chance that slot i agrees stays exactly J.
    for (uint32_t probe = 0; donor == kEmpty && probe < kMaxProbes; ++probe) {
      donor = mins_[SlotOf(Mix64(kProbeSeed ^ (uint64_t{i} << 32 | probe)), slots)];
    }
    for (size_t step = 1; donor == kEmpty && step < slots; ++step) {
      donor = mins_[(i + step) % slots];
    }
    (*values)[i] = static_cast<uint32_t>(donor & mask);
  }
}

}  // namespace pagesieve::fingerprint
