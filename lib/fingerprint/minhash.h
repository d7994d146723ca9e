#pragma once

// MinHash sketches of a page's shingle set: one-permutation hashing with
// optimal densification, each slot stored in its low `bits` bits. See
// docs/fingerprints.md ("MinHash") for the variant's choice by measurement.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::fingerprint {

// The seed of the MinHash mixer, "minhash!" in ASCII. Fixed for a
// kFingerprintVersion, like kFeatureSeed: sketches are only comparable when
// it is the same.
inline constexpr uint64_t kMinHashSeed = 0x6d696e6861736821ULL;

// The defaults were chosen by measurement (bench/fingerprint/minhash_bench,
// docs/fingerprints.md): at 260 stored bytes, 256 slots of 8 bits estimate
// Jaccard with a third less error than 128 slots of 16 bits.
struct MinHashOptions {
  // Slots per sketch (near.minhash_slots); 0 computes no sketches. The
  // error of a Jaccard estimate falls as 1/sqrt(slots).
  int slots = 256;
  // Bits kept of each slot (near.minhash_bits): 8, 16 or 32.
  int bits = 8;
  // Pages with fewer distinct shingles get no sketch
  // (near.minhash_min_shingles): a text of one repeated word or phrase has
  // one or a few, and would match every page made of the same repetition.
  uint32_t min_shingles = 32;
};

// A page's title as its sketch carries it: its tokens (TitleTokens), and
// whether the title is part of the page's identity (a short page,
// content.short_text_tokens), so that the near tier asks a candidate's
// title to agree (TitlesAgree).
struct SketchTitle {
  std::vector<uint32_t> tokens;
  bool counts = false;
  bool operator==(const SketchTitle&) const = default;
};

// A MinHash sketch: `slots` values of `bits` bits each. Two sketches of the
// same parameters agree in a slot with probability J + (1 - J) / 2^bits for
// shingle sets of Jaccard similarity J. A value type; thread-compatible.
class MinHashSketch {
 public:
  static constexpr int kMinSlots = 16;
  static constexpr int kMaxSlots = 1024;
  static bool ValidBits(int bits) { return bits == 8 || bits == 16 || bits == 32; }

  // At most this many title tokens fit in the stored form.
  static constexpr size_t kMaxTitleTokens = 32;

  using Title = SketchTitle;

  // InvalidArgument unless the slot count and width are valid, every value
  // fits in `bits` bits and there are at most kMaxTitleTokens title tokens.
  // `set_size` is the number of distinct shingles sketched, 0 when unknown.
  static StatusOr<MinHashSketch> Create(int bits, std::vector<uint32_t> values,
                                        uint32_t set_size = 0, Title title = {});

  int slots() const { return static_cast<int>(values_.size()); }
  int bits() const { return bits_; }
  std::span<const uint32_t> values() const { return values_; }
  // How many distinct shingles the sketch was made of; 0 when unknown. With the Jaccard
  // estimate it gives the size of the intersection, so how much of the
  // smaller page the larger one contains (EstimateContainment).
  uint32_t set_size() const { return set_size_; }
  // The page's title: not part of the Jaccard estimate; the near tier asks
  // the two titles to agree (TitlesAgree) when either counts.
  const Title& title() const { return title_; }

  // The stored form: kFingerprintVersion (1 byte), bits (1 byte), slots
  // (2 bytes little-endian), set_size (4 bytes little-endian), each slot
  // in bits/8 little-endian bytes, then, only when the page has a title, a
  // byte (the number of title tokens, plus 128 when the title counts) and
  // each token in 4 little-endian bytes. 264 bytes at the defaults (256
  // slots of 8 bits) without a title.
  std::string Encode() const;
  size_t EncodedSize() const;
  // Refuses (InvalidArgument) bytes of another fingerprint version, a bad
  // header, or a length that does not match the header.
  static StatusOr<MinHashSketch> Decode(std::string_view bytes);

  bool operator==(const MinHashSketch&) const = default;

 private:
  MinHashSketch(int bits, std::vector<uint32_t> values, uint32_t set_size, Title title)
      : bits_(bits), set_size_(set_size), values_(std::move(values)), title_(std::move(title)) {}

  int bits_ = 16;
  uint32_t set_size_ = 0;
  std::vector<uint32_t> values_;
  Title title_;
};

// The Jaccard similarity of the two shingle sets, estimated from the share
// of equal slots, corrected for the chance 2^-bits that two unrelated
// `bits`-bit values are equal, and clamped to [0, 1]. Its standard error is
// about sqrt(J (1 - J) / slots). InvalidArgument when the sketches have
// different parameters: they cannot be compared.
StatusOr<double> EstimateJaccard(const MinHashSketch& a, const MinHashSketch& b);

// How much of the smaller of two sets the larger one holds, |A ∩ B| /
// min(|A|, |B|), from their Jaccard similarity `jaccard` and their sizes:
// |A ∩ B| = J (|A| + |B|) / (1 + J). Clamped to [0, 1]; none when either
// size is unknown (0). A copy whose text is a subset of its original's
// (a syndicating template that carries only the article, an original that
// keeps comments or related text) has a containment near 1 and a Jaccard
// that falls with the difference in size.
std::optional<double> EstimateContainment(double jaccard, uint32_t size_a, uint32_t size_b);

// Computes sketches. Keeps its buffers between calls; not thread-safe: one
// per thread.
//
// One-permutation hashing: each distinct shingle is mixed once into a
// 64-bit value whose high 32 bits pick a slot and which competes for that
// slot's minimum, so the cost is one mix per shingle whatever the number of
// slots (k independent hash functions cost `slots` mixes per shingle).
// Slots no shingle fell in are filled by optimal densification (Shrivastava,
// ICML 2017): slot i borrows the minimum of the first non-empty slot of a
// fixed pseudo-random probe sequence of its own, which keeps the estimate
// unbiased for sets with fewer shingles than slots.
class MinHasher {
 public:
  // Options must be valid (FingerprintOptionsFromConfig checks them): slots
  // 0 or within MinHashSketch's range, bits 8, 16 or 32. Invalid ones are a
  // bug, and abort here rather than on the first page.
  explicit MinHasher(MinHashOptions options);

  // The sketch of a page's shingles, given sorted (duplicates allowed, as
  // TextSimHasher leaves them). No sketch when options.slots is 0 or there
  // are fewer than options.min_shingles distinct shingles. Linear in the
  // number of shingles, plus O(slots) expected work to densify.
  std::optional<MinHashSketch> Sketch(std::span<const uint64_t> sorted_shingles);

  const MinHashOptions& options() const { return options_; }

 private:
  // Fills the empty slots of mins_ into values_; mins_ is left as is, so
  // only originally non-empty slots donate.
  void Densify(std::vector<uint32_t>* values) const;

  MinHashOptions options_;
  std::vector<uint64_t> mins_;  // per slot, the least mixed hash; kEmpty if none
};

}  // namespace pagesieve::fingerprint
