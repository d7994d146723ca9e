#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pagesieve::store {

// Which of a near entry's index rows a shard holds: one row per SimHash
// table (the table's prefix of the SimHash) and one per LSH band (the
// band's key of the sketch).
//
// A single-partition shard holds every row of its entries (All()). A routed
// near owner holds only the rows whose keys it owns (docs/global-routing.md,
// "What a partition holds"): another owner answers for the rest, so the
// in-memory indexes of N owners together hold each row once instead of each
// entry's every row at every owner that owns one of them.
//
// Stored with the entry (codec.h), so that the indexes rebuilt when a shard
// opens hold the same rows as before. Copyable value.
class NearRows {
 public:
  static NearRows All() { return NearRows(); }
  // None yet: add the owned rows with AddTable and AddBand.
  static NearRows Some() {
    NearRows rows;
    rows.all_ = false;
    return rows;
  }

  void AddTable(int table) { Set(tables_, table); }
  void AddBand(int band) { Set(bands_, band); }

  bool all() const { return all_; }
  bool HasTable(int table) const { return all_ || Get(tables_, table); }
  bool HasBand(int band) const { return all_ || Get(bands_, band); }
  // Whether any of the first `bands` bands is held.
  bool AnyBand(int bands) const;

  // [count varint][bitmap of ceil(count / 8) bytes] for the tables, then the
  // same for the bands. Not used for All(), which is stored as no rows field.
  void EncodeTo(std::string* out) const;
  // False when `in` does not start with a well-formed encoding.
  static bool DecodeFrom(std::string_view* in, NearRows* rows);

  friend bool operator==(const NearRows&, const NearRows&) = default;

 private:
  static void Set(std::vector<bool>& bits, int i) {
    if (bits.size() <= static_cast<size_t>(i)) bits.resize(static_cast<size_t>(i) + 1);
    bits[static_cast<size_t>(i)] = true;
  }
  static bool Get(const std::vector<bool>& bits, int i) {
    return i >= 0 && static_cast<size_t>(i) < bits.size() && bits[static_cast<size_t>(i)];
  }

  bool all_ = true;
  std::vector<bool> tables_;
  std::vector<bool> bands_;
};

}  // namespace pagesieve::store
