#include "store/lsh_bands.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace pagesieve::store {
namespace {

bool ValidSketch(int slots, int bits) {
  return slots >= 1 && slots <= 1024 && (bits == 8 || bits == 16 || bits == 32);
}

Status BadSketch(int slots, int bits) {
  return Status::InvalidArgument("no LSH banding for MinHash sketches of " + std::to_string(slots) +
                                 " slots of " + std::to_string(bits) + " bits");
}

// The fewest bands of `rows` slots that miss a pair whose slots agree with
// probability p at most `max_miss` of the time: (1 - p^rows)^bands <= max_miss.
double BandsNeeded(double p, int rows, double max_miss) {
  const double all_rows = std::pow(p, rows);
  if (all_rows >= 1.0) return 1;
  // log1p keeps precision when p^rows is tiny.
  return std::max(1.0, std::ceil(std::log(max_miss) / std::log1p(-all_rows)));
}

}  // namespace

double SlotAgreement(double jaccard, int bits) {
  const double chance = std::ldexp(1.0, -bits);
  return jaccard + (1.0 - jaccard) * chance;
}

double BandedCandidateProbability(double p, int bands, int rows) {
  return 1.0 - std::pow(1.0 - std::pow(p, rows), bands);
}

StatusOr<LshBands> LshBands::Create(int slots, int bits, double threshold, double max_miss) {
  if (!ValidSketch(slots, bits)) return BadSketch(slots, bits);
  if (!(threshold > 0.0 && threshold <= 1.0)) {
    return Status::InvalidArgument("config key 'near.jaccard' must be above 0 and at most 1");
  }
  if (!(max_miss > 0.0 && max_miss < 1.0)) {
    return Status::InvalidArgument("the LSH miss rate at near.jaccard must be between 0 and 1");
  }
  const double p = SlotAgreement(threshold, bits);
  // More rows always need more bands; the first that fits is the steepest.
  for (int rows = slots; rows >= 1; --rows) {
    const double bands = BandsNeeded(p, rows, max_miss);
    if (bands * rows <= slots) return LshBands(slots, bits, static_cast<int>(bands), rows);
  }
  return Status::InvalidArgument("no LSH banding of " + std::to_string(slots) +
                                 " MinHash slots misses at most " + std::to_string(max_miss) +
                                 " of the pairs at near.jaccard " + std::to_string(threshold) +
                                 "; raise near.minhash_slots or near.jaccard");
}

StatusOr<LshBands> LshBands::FromBandsRows(int slots, int bits, int bands, int rows) {
  if (!ValidSketch(slots, bits)) return BadSketch(slots, bits);
  if (bands < 1 || rows < 1 || bands > slots / rows) {
    return Status::InvalidArgument(std::to_string(bands) + " LSH bands of " + std::to_string(rows) +
                                   " rows do not fit in " + std::to_string(slots) +
                                   " MinHash slots");
  }
  return LshBands(slots, bits, bands, rows);
}

double LshBands::CandidateProbability(double jaccard) const {
  return BandedCandidateProbability(SlotAgreement(jaccard, bits_), bands_, rows_);
}

StatusOr<SketchHeader> ParseSketchHeader(std::string_view encoded) {
  if (encoded.size() < kSketchHeaderBytes) {
    return Status::InvalidArgument("a MinHash sketch of " + std::to_string(encoded.size()) +
                                   " bytes is shorter than its header");
  }
  const auto* p = reinterpret_cast<const unsigned char*>(encoded.data());
  const uint32_t set_size = static_cast<uint32_t>(p[4]) | static_cast<uint32_t>(p[5]) << 8 |
                            static_cast<uint32_t>(p[6]) << 16 | static_cast<uint32_t>(p[7]) << 24;
  SketchHeader h{p[0], p[1], p[2] | (p[3] << 8), set_size};
  if ((h.bits != 8 && h.bits != 16 && h.bits != 32) || h.slots == 0) {
    return Status::InvalidArgument("a MinHash sketch header names " + std::to_string(h.slots) +
                                   " slots of " + std::to_string(h.bits) + " bits");
  }
  const size_t slots_end = kSketchHeaderBytes + static_cast<size_t>(h.slots) * (h.bits / 8);
  // A short page's title tokens may follow the slots: a count, then 4 bytes each.
  // Its count byte's high bit is a flag the store does not read.
  const size_t titles = encoded.size() > slots_end ? p[slots_end] & 0x7f : 0;
  const size_t expected = encoded.size() > slots_end ? slots_end + 1 + 4 * titles : slots_end;
  if (encoded.size() != expected || (encoded.size() > slots_end && titles == 0)) {
    return Status::InvalidArgument(
        "a MinHash sketch of " + std::to_string(h.slots) + " slots of " + std::to_string(h.bits) +
        " bits has " + std::to_string(encoded.size()) + " bytes, not " + std::to_string(expected));
  }
  return h;
}

bool LshBands::Fits(std::string_view encoded) const {
  StatusOr<SketchHeader> h = ParseSketchHeader(encoded);
  return h.ok() && h->slots == slots_ && h->bits == bits_;
}

bool LshBands::Keys(std::string_view encoded, std::vector<uint64_t>* out) const {
  out->clear();
  if (!Fits(encoded)) return false;
  const size_t band_bytes = static_cast<size_t>(rows_) * (bits_ / 8);
  const char* slots = encoded.data() + kSketchHeaderBytes;
  out->resize(static_cast<size_t>(bands_));
  for (int i = 0; i < bands_; ++i) {
    (*out)[i] = XXH3_64bits_withSeed(slots + i * band_bytes, band_bytes, kBandSeed + i);
  }
  return true;
}

bool LshBands::ShareBand(std::string_view a, std::string_view b) const {
  if (!Fits(a) || !Fits(b)) return false;
  const size_t band_bytes = static_cast<size_t>(rows_) * (bits_ / 8);
  for (int i = 0; i < bands_; ++i) {
    const size_t at = kSketchHeaderBytes + i * band_bytes;
    if (std::memcmp(a.data() + at, b.data() + at, band_bytes) == 0) return true;
  }
  return false;
}

}  // namespace pagesieve::store
