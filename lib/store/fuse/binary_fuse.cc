#include "store/fuse/binary_fuse.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <new>

#include "store/cuckoo/packed_slots.h"
#include "store/fuse/fuse_hash.h"

namespace pagesieve::store::fuse {
namespace {

constexpr uint32_t kMaxSegmentLength = uint32_t{1} << 18;
constexpr int kAttemptsPerSize = 8;
constexpr int kMaxAttempts = 64;

// One construction attempt: peel keys off slots that only one key still
// maps to, then assign fingerprints in the reverse order (each key's peeled
// slot is free to make its XOR come out). False when some keys would not
// peel (a dense corner of the hash graph): try another seed.
class Peeler {
 public:
  explicit Peeler(const FuseShape& shape)
      : shape_(shape), count_(shape.slots(), 0), xors_(shape.slots(), 0) {}

  bool Peel(const std::vector<uint64_t>& keys) {
    for (uint64_t key : keys) {
      const uint64_t h = MixKey(key, shape_.seed);
      const FuseSlots s = SlotsOf(h, shape_);
      for (uint64_t at : s.at) {
        // A slot hit 255 times is hopeless anyway; the counter must not wrap.
        if (++count_[at] == 255) return false;
        xors_[at] ^= h;
      }
    }
    std::vector<uint64_t> ready;
    for (uint64_t i = 0; i < count_.size(); ++i) {
      if (count_[i] == 1) ready.push_back(i);
    }
    order_.reserve(keys.size());
    while (!ready.empty()) {
      const uint64_t at = ready.back();
      ready.pop_back();
      if (count_[at] != 1) continue;
      const uint64_t h = xors_[at];
      order_.push_back({h, at});
      for (uint64_t other : SlotsOf(h, shape_).at) {
        xors_[other] ^= h;
        if (--count_[other] == 1) ready.push_back(other);
      }
    }
    return order_.size() == keys.size();
  }

  void Assign(char* bytes) const {
    cuckoo::PackedSlots slots(bytes, shape_.fingerprint_bits);
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const FuseSlots s = SlotsOf(it->hash, shape_);
      uint32_t v = FingerprintOf(it->hash, shape_.fingerprint_bits);
      for (uint64_t at : s.at) {
        if (at != it->slot) v ^= slots.Get(at);
      }
      slots.Set(it->slot, v);
    }
  }

 private:
  struct Peeled {
    uint64_t hash;
    uint64_t slot;
  };
  const FuseShape& shape_;
  std::vector<uint8_t> count_;
  std::vector<uint64_t> xors_;
  std::vector<Peeled> order_;
};

}  // namespace

// The segment length and the slack grow with n as the paper recommends for
// 3-wise fuse filters: sets below a million keys need more than 1.125
// slots per key to peel reliably.
FuseShape ShapeFor(uint64_t keys, int fingerprint_bits, double size_factor_boost) {
  FuseShape s;
  s.keys = keys;
  s.fingerprint_bits = fingerprint_bits;
  const double n = static_cast<double>(std::max<uint64_t>(keys, 2));
  const int log_len = static_cast<int>(std::floor(std::log(n) / std::log(3.33) + 2.25));
  s.segment_length = std::min(uint32_t{1} << std::clamp(log_len, 2, 18), kMaxSegmentLength);
  const double factor = std::max(1.125, 0.875 + 0.25 * std::log(1e6) / std::log(n));
  const auto capacity = static_cast<uint64_t>(std::ceil(n * factor * size_factor_boost));
  const uint64_t segments = (capacity + s.segment_length - 1) / s.segment_length;
  s.segment_count = static_cast<uint32_t>(std::max<uint64_t>(segments, 3) - 2);
  return s;
}

Status BinaryFuse::ValidateShape(const FuseShape& s) {
  if (s.keys == 0) return Status::Ok();
  if (s.fingerprint_bits < kMinFingerprintBits || s.fingerprint_bits > kMaxFingerprintBits ||
      !std::has_single_bit(s.segment_length) || s.segment_length > kMaxSegmentLength ||
      s.segment_count == 0 || s.keys > s.slots() || s.slots() > (uint64_t{1} << 40)) {
    return Status::Corruption("fuse filter: impossible shape");
  }
  return Status::Ok();
}

StatusOr<BinaryFuse> BinaryFuse::Allocate(const FuseShape& shape) {
  PS_RETURN_IF_ERROR(ValidateShape(shape));
  if (shape.keys == 0) return BinaryFuse(shape, bloom::BitArena());
  PS_ASSIGN_OR_RETURN(bloom::BitArena bytes, bloom::BitArena::Allocate(shape.bytes()));
  return BinaryFuse(shape, std::move(bytes));
}

StatusOr<BinaryFuse> BinaryFuse::Build(std::vector<uint64_t>* keys, int fingerprint_bits) {
  // Two equal keys would never peel (their slots cancel): deduplicate.
  std::sort(keys->begin(), keys->end());
  keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
  if (keys->empty()) {
    BinaryFuse empty;
    empty.shape_.fingerprint_bits = fingerprint_bits;
    return empty;
  }
  double boost = 1.0;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    if (attempt > 0 && attempt % kAttemptsPerSize == 0) boost *= 1.05;
    FuseShape shape = ShapeFor(keys->size(), fingerprint_bits, boost);
    shape.seed = 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(attempt + 1);
    try {
      Peeler peeler(shape);
      if (!peeler.Peel(*keys)) continue;
      PS_ASSIGN_OR_RETURN(BinaryFuse filter, Allocate(shape));
      peeler.Assign(filter.bytes_.data());
      return filter;
    } catch (const std::bad_alloc&) {
      return Status::ResourceExhausted("fuse filter: out of memory building " +
                                       std::to_string(keys->size()) + " keys");
    }
  }
  return Status::Internal("fuse filter: " + std::to_string(keys->size()) +
                          " keys did not peel in " + std::to_string(kMaxAttempts) + " attempts");
}

bool BinaryFuse::MayContain(uint64_t key_hash) const {
  if (shape_.keys == 0) return false;
  const uint64_t h = MixKey(key_hash, shape_.seed);
  const FuseSlots s = SlotsOf(h, shape_);
  const cuckoo::PackedSlots slots(const_cast<char*>(bytes_.data()), shape_.fingerprint_bits);
  return (slots.Get(s.at[0]) ^ slots.Get(s.at[1]) ^ slots.Get(s.at[2])) ==
         FingerprintOf(h, shape_.fingerprint_bits);
}

}  // namespace pagesieve::store::fuse
