// MinHashSketch: its stored form, Jaccard estimates and LSH band keys.

#include <algorithm>
#include <cmath>
#include <string>

#include "fingerprint/minhash.h"
#include "fingerprint/version.h"

namespace pagesieve::fingerprint {
namespace {

constexpr size_t kHeaderBytes = 8;
// Set in the title's count byte when the title is part of the page's identity.
constexpr size_t kTitleCounts = 0x80;

std::string Describe(int slots, int bits) {
  return std::to_string(slots) + " slots of " + std::to_string(bits) + " bits";
}

// Appends the low `bytes` bytes of v, least significant first.
void AppendLittleEndian(uint32_t v, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

uint32_t ReadLittleEndian(const unsigned char* p, int bytes) {
  uint32_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

// The encoded bytes of values[begin, end).
void AppendSlots(const MinHashSketch& sketch, size_t begin, size_t end, std::string* out) {
  const int bytes = sketch.bits() / 8;
  for (size_t i = begin; i < end; ++i) AppendLittleEndian(sketch.values()[i], bytes, out);
}

}  // namespace

StatusOr<MinHashSketch> MinHashSketch::Create(int bits, std::vector<uint32_t> values,
                                              uint32_t set_size, Title title) {
  const int slots = static_cast<int>(values.size());
  if (!ValidBits(bits) || slots < kMinSlots || slots > kMaxSlots) {
    return Status::InvalidArgument("no MinHash sketch of " + Describe(slots, bits) +
                                   " (slots between " + std::to_string(kMinSlots) + " and " +
                                   std::to_string(kMaxSlots) + ", bits 8, 16 or 32)");
  }
  if (bits < 32) {
    const uint32_t limit = uint32_t{1} << bits;
    if (std::any_of(values.begin(), values.end(), [&](uint32_t v) { return v >= limit; })) {
      return Status::InvalidArgument("a MinHash value does not fit in " + std::to_string(bits) +
                                     " bits");
    }
  }
  if (title.tokens.size() > kMaxTitleTokens) {
    return Status::InvalidArgument(std::to_string(title.tokens.size()) +
                                   " title tokens in a MinHash sketch, at most " +
                                   std::to_string(kMaxTitleTokens));
  }
  // Without tokens there is no title to compare.
  if (title.tokens.empty()) title.counts = false;
  return MinHashSketch(bits, std::move(values), set_size, std::move(title));
}

size_t MinHashSketch::EncodedSize() const {
  const size_t title = title_.tokens.empty() ? 0 : 1 + 4 * title_.tokens.size();
  return kHeaderBytes + values_.size() * static_cast<size_t>(bits_ / 8) + title;
}

std::string MinHashSketch::Encode() const {
  std::string out;
  out.reserve(EncodedSize());
  out.push_back(static_cast<char>(kFingerprintVersion));
  out.push_back(static_cast<char>(bits_));
  AppendLittleEndian(static_cast<uint32_t>(values_.size()), 2, &out);
  AppendLittleEndian(set_size_, 4, &out);
  AppendSlots(*this, 0, values_.size(), &out);
  if (!title_.tokens.empty()) {
    const size_t flag = title_.counts ? kTitleCounts : 0;
    out.push_back(static_cast<char>(title_.tokens.size() | flag));
    for (uint32_t t : title_.tokens) AppendLittleEndian(t, 4, &out);
  }
  return out;
}

StatusOr<MinHashSketch> MinHashSketch::Decode(std::string_view bytes) {
  if (bytes.size() < kHeaderBytes) {
    return Status::InvalidArgument("MinHash sketch of " + std::to_string(bytes.size()) +
                                   " bytes is shorter than its header");
  }
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (p[0] != kFingerprintVersion) {
    return Status::InvalidArgument("MinHash sketch of fingerprint version " + std::to_string(p[0]) +
                                   ", this build computes version " +
                                   std::to_string(kFingerprintVersion));
  }
  const int bits = p[1];
  const int slots = static_cast<int>(ReadLittleEndian(p + 2, 2));
  if (!ValidBits(bits) || slots < kMinSlots || slots > kMaxSlots) {
    return Status::InvalidArgument("MinHash sketch header names " + Describe(slots, bits));
  }
  const size_t width = static_cast<size_t>(bits / 8);
  const size_t slots_end = kHeaderBytes + width * static_cast<size_t>(slots);
  const size_t title_byte = bytes.size() > slots_end ? p[slots_end] : 0;
  const size_t titles = title_byte & ~kTitleCounts;
  const size_t expected = slots_end + (titles == 0 ? 0 : 1 + 4 * titles);
  if (bytes.size() != expected || titles > kMaxTitleTokens ||
      (bytes.size() > slots_end && titles == 0)) {
    return Status::InvalidArgument("MinHash sketch of " + Describe(slots, bits) + " has " +
                                   std::to_string(bytes.size()) + " bytes, expected " +
                                   std::to_string(slots_end) + " or that and 1 to 32 title tokens");
  }
  const uint32_t set_size = ReadLittleEndian(p + 4, 4);
  std::vector<uint32_t> values(static_cast<size_t>(slots));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = ReadLittleEndian(p + kHeaderBytes + i * width, static_cast<int>(width));
  }
  Title title{std::vector<uint32_t>(titles), (title_byte & kTitleCounts) != 0};
  for (size_t i = 0; i < titles; ++i)
    title.tokens[i] = ReadLittleEndian(p + slots_end + 1 + 4 * i, 4);
  return MinHashSketch(bits, std::move(values), set_size, std::move(title));
}

StatusOr<double> EstimateJaccard(const MinHashSketch& a, const MinHashSketch& b) {
  if (a.slots() != b.slots() || a.bits() != b.bits()) {
    return Status::InvalidArgument("cannot compare a MinHash sketch of " +
                                   Describe(a.slots(), a.bits()) + " with one of " +
                                   Describe(b.slots(), b.bits()));
  }
  int equal = 0;
  for (int i = 0; i < a.slots(); ++i) equal += a.values()[i] == b.values()[i] ? 1 : 0;
  // Unrelated slots still agree with chance 2^-bits (Li and König, b-bit
  // minwise hashing); undo that so the estimate is unbiased in J.
  const double chance = std::ldexp(1.0, -a.bits());
  const double agree = static_cast<double>(equal) / a.slots();
  return std::clamp((agree - chance) / (1.0 - chance), 0.0, 1.0);
}

std::optional<double> EstimateContainment(double jaccard, uint32_t size_a, uint32_t size_b) {
  if (size_a == 0 || size_b == 0) return std::nullopt;
  const double sum = static_cast<double>(size_a) + static_cast<double>(size_b);
  const double intersection = jaccard * sum / (1.0 + jaccard);
  return std::clamp(intersection / std::min(size_a, size_b), 0.0, 1.0);
}

}  // namespace pagesieve::fingerprint
