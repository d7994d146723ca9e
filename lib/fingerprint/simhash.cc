#include "fingerprint/simhash.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace pagesieve::fingerprint {

int64_t FeatureWeight(uint32_t term_frequency, double emphasis) {
  double tf_weight =
      term_frequency <= 1 ? 1.0 : 1.0 + std::log(static_cast<double>(term_frequency));
  return std::llround(tf_weight * emphasis * static_cast<double>(kWeightScale));
}

namespace {

// kSpread[v] has byte j set to bit j of v: adding it to a word adds each bit
// of v to its own byte counter.
constexpr std::array<uint64_t, 256> MakeSpreadTable() {
  std::array<uint64_t, 256> table{};
  for (int v = 0; v < 256; ++v) {
    for (int j = 0; j < 8; ++j) {
      if ((v >> j) & 1) table[v] |= uint64_t{1} << (8 * j);
    }
  }
  return table;
}
constexpr std::array<uint64_t, 256> kSpread = MakeSpreadTable();

// Sorts hashes ascending. On a page's thousands of uniformly random shingle
// hashes std::sort mispredicts about every other comparison; an LSD radix
// sort (eight byte-wide passes, every pass's counts from one read, a pass
// skipped where all share the byte) does none of that: it cut the SimHash
// stage by about a sixth (docs/benchmarks.md, "The shingles' sort").
void SortHashes(std::vector<uint64_t>* hashes) {
  constexpr size_t kRadixFrom = 256;  // below, the counting costs more than it saves
  const size_t n = hashes->size();
  if (n < kRadixFrom) {
    std::sort(hashes->begin(), hashes->end());
    return;
  }
  std::array<std::array<uint32_t, 256>, 8> counts{};
  for (uint64_t h : *hashes) {
    for (int pass = 0; pass < 8; ++pass) ++counts[pass][(h >> (8 * pass)) & 0xff];
  }
  thread_local std::vector<uint64_t> scratch;
  scratch.resize(n);
  uint64_t* from = hashes->data();
  uint64_t* to = scratch.data();
  for (int pass = 0; pass < 8; ++pass) {
    std::array<uint32_t, 256>& count = counts[pass];
    if (count[(from[0] >> (8 * pass)) & 0xff] == n) continue;  // all share this byte
    uint32_t offset = 0;
    for (uint32_t& c : count) offset += std::exchange(c, offset);
    for (size_t i = 0; i < n; ++i) to[count[(from[i] >> (8 * pass)) & 0xff]++] = from[i];
    std::swap(from, to);
  }
  if (from != hashes->data()) std::copy(from, from + n, hashes->data());
}

}  // namespace

void SimHashAccumulator::Add(uint64_t feature, int64_t weight) {
  if (weight == kWeightScale) {
    AddUnit(feature);
  } else {
    AddWeighted(feature, weight);
  }
}

void SimHashAccumulator::AddWeighted(uint64_t feature, int64_t weight) {
  for (int bit = 0; bit < 64; ++bit) {
    sums_[bit] += ((feature >> bit) & 1) ? weight : -weight;
  }
}

void SimHashAccumulator::AddUnit(uint64_t feature) {
  for (int i = 0; i < 8; ++i) byte_counters_[i] += kSpread[(feature >> (8 * i)) & 0xff];
  ++unit_features_;
  if (++pending_ == 255) FlushUnitCounters();
}

void SimHashAccumulator::FlushUnitCounters() {
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) unit_counts_[8 * i + j] += (byte_counters_[i] >> (8 * j)) & 0xff;
    byte_counters_[i] = 0;
  }
  pending_ = 0;
}

uint64_t SimHashAccumulator::Finish() {
  FlushUnitCounters();
  uint64_t hash = 0;
  for (int bit = 0; bit < 64; ++bit) {
    // Each unit feature adds +kWeightScale where its bit is set, -kWeightScale where not.
    int64_t sum = sums_[bit] + kWeightScale * (2 * unit_counts_[bit] - unit_features_);
    if (sum > 0) hash |= uint64_t{1} << bit;
  }
  return hash;
}

uint64_t WeightedSimHash(std::vector<uint64_t>* shingles, std::vector<uint64_t>* emphasized,
                         double emphasis) {
  SortHashes(shingles);
  std::sort(emphasized->begin(), emphasized->end());
  emphasized->erase(std::unique(emphasized->begin(), emphasized->end()), emphasized->end());

  // Most features occur once: skip the logarithm and rounding for them.
  const int64_t once = FeatureWeight(1, 1.0);
  const int64_t once_emphasized = FeatureWeight(1, emphasis);
  SimHashAccumulator acc;
  auto s = shingles->begin();
  auto e = emphasized->begin();
  // A merge of the two sorted lists: each distinct hash once, with its count
  // in `shingles` and whether `emphasized` has it.
  while (s != shingles->end() || e != emphasized->end()) {
    uint64_t feature = (e == emphasized->end() || (s != shingles->end() && *s < *e)) ? *s : *e;
    uint32_t count = 0;
    while (s != shingles->end() && *s == feature) ++s, ++count;
    bool is_emphasized = e != emphasized->end() && *e == feature;
    if (is_emphasized) ++e;
    if (count <= 1) {
      acc.Add(feature, is_emphasized ? once_emphasized : once);
    } else {
      acc.Add(feature, FeatureWeight(count, is_emphasized ? emphasis : 1.0));
    }
  }
  return acc.Finish();
}

}  // namespace pagesieve::fingerprint
