#include "store/cuckoo/cuckoo_geometry.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

namespace pagesieve::store::cuckoo {
namespace {

// The design rate is held under the configured one by the same margin as the
// Bloom filter's, so a measurement over 10^6 probes lands under it.
constexpr double kRateMargin = 0.95;

uint64_t CeilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

Duration WidthFor(const BloomOptions& o) {
  return Duration(static_cast<int64_t>(
      CeilDiv(static_cast<uint64_t>(o.ttl.count()), static_cast<uint64_t>(o.generations))));
}

uint32_t BucketsPerPage(int slot_bits, size_t page_bytes) {
  uint32_t per_page = kMinBucketsPerPage;
  while (size_t{per_page} * 2 * kSlotsPerBucket * static_cast<size_t>(slot_bits) / 8 <=
         page_bytes) {
    per_page *= 2;
  }
  return per_page;
}

Status Corrupt(const std::string& what) { return Status::Corruption("cuckoo geometry: " + what); }

}  // namespace

double CuckooFalsePositiveRate(const CuckooGeometry& g, uint64_t stored_keys) {
  if (g.slots() == 0) return 0;
  const double load = static_cast<double>(stored_keys) / static_cast<double>(g.slots());
  const double per_slot = 1.0 / (std::ldexp(1.0, g.fingerprint_bits) - 1.0);
  return -std::expm1(2.0 * kSlotsPerBucket * load * std::log1p(-per_slot));
}

StatusOr<CuckooGeometry> ComputeCuckooGeometry(const BloomOptions& o) {
  PS_RETURN_IF_ERROR(ValidateBloomOptions(o));
  if (o.generations > kMaxCuckooGenerations) {
    return Status::InvalidArgument("cuckoo: generations must be at most " +
                                   std::to_string(kMaxCuckooGenerations) + " (3-bit tags)");
  }
  CuckooGeometry g;
  g.generation_width = WidthFor(o);
  // The same share per generation as the Bloom filter's (bloom_geometry.cc),
  // computed without overflow for expected_items up to 2^40.
  const long double share = static_cast<long double>(o.expected_items) *
                            static_cast<long double>(g.generation_width.count()) /
                            static_cast<long double>(o.ttl.count());
  g.keys_per_generation = static_cast<uint64_t>(std::ceil(share));
  const uint64_t peak = g.keys_per_generation * static_cast<uint64_t>(o.generations + 1);
  const uint64_t min_buckets =
      std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(
                                static_cast<double>(peak) / (kSlotsPerBucket * kDesignLoad))));
  for (g.fingerprint_bits = kMinFingerprintBits; g.fingerprint_bits < kMaxFingerprintBits;
       ++g.fingerprint_bits) {
    g.buckets = min_buckets;  // the rate at the design load, before rounding
    if (CuckooFalsePositiveRate(g, peak) <= kRateMargin * o.false_positive_rate) break;
  }
  g.buckets_per_page = BucketsPerPage(g.slot_bits(), o.page_bytes);
  g.buckets = CeilDiv(min_buckets, g.buckets_per_page) * g.buckets_per_page;
  PS_RETURN_IF_ERROR(ValidateCuckooGeometry(o, g));
  return g;
}

Status ValidateCuckooGeometry(const BloomOptions& o, const CuckooGeometry& g) {
  if (g.fingerprint_bits < kMinFingerprintBits || g.fingerprint_bits > kMaxFingerprintBits) {
    return Corrupt("fingerprint bits " + std::to_string(g.fingerprint_bits) + " out of range");
  }
  if (g.buckets_per_page < kMinBucketsPerPage || !std::has_single_bit(g.buckets_per_page) ||
      g.buckets_per_page > (uint32_t{1} << 20)) {
    return Corrupt("bad buckets per page " + std::to_string(g.buckets_per_page));
  }
  if (g.buckets == 0 || g.buckets % g.buckets_per_page != 0) return Corrupt("bad bucket count");
  if (g.pages() > UINT32_MAX) return Corrupt("more pages than 32-bit page ids");
  if (g.buckets > (uint64_t{1} << 40)) return Corrupt("too many buckets");
  if (g.generation_width != WidthFor(o)) return Corrupt("generation width does not match ttl / G");
  if (g.keys_per_generation == 0) return Corrupt("no keys per generation");
  return Status::Ok();
}

}  // namespace pagesieve::store::cuckoo
