#include "fingerprint/simhash.h"

#include <algorithm>
#include <cmath>

namespace pagesieve::fingerprint {

int64_t FeatureWeight(uint32_t term_frequency, double emphasis) {
  double tf_weight = term_frequency <= 1 ? 1.0 : 1.0 + std::log(static_cast<double>(term_frequency));
  return std::llround(tf_weight * emphasis * static_cast<double>(kWeightScale));
}

void SimHashAccumulator::Add(uint64_t feature, int64_t weight) {
  for (int bit = 0; bit < 64; ++bit) {
    sums_[bit] += ((feature >> bit) & 1) ? weight : -weight;
  }
}

uint64_t SimHashAccumulator::Finish() const {
  uint64_t hash = 0;
  for (int bit = 0; bit < 64; ++bit) {
    if (sums_[bit] > 0) hash |= uint64_t{1} << bit;
  }
  return hash;
}

uint64_t WeightedSimHash(std::vector<uint64_t>* shingles, std::vector<uint64_t>* emphasized,
                         double emphasis) {
  std::sort(shingles->begin(), shingles->end());
  std::sort(emphasized->begin(), emphasized->end());
  emphasized->erase(std::unique(emphasized->begin(), emphasized->end()), emphasized->end());

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
    acc.Add(feature, FeatureWeight(std::max(count, 1u), is_emphasized ? emphasis : 1.0));
  }
  return acc.Finish();
}

}  // namespace pagesieve::fingerprint
