#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::store {

// The permuted-table layout of the SimHash store for one maximum Hamming
// distance k, after Manku, Jain and Das Sarma (WWW 2007).
//
// The 64 bits are cut into b contiguous blocks (b > k). Two fingerprints
// within distance k differ in at most k blocks, so at least b-k blocks agree
// exactly (pigeonhole). There is one table per choice of b-k blocks, C(b, k)
// tables in all; a table's key puts its chosen blocks first (the "prefix",
// p bits), then the other blocks. Every fingerprint within distance k of a
// query therefore shares the query's prefix in at least one table, and one
// prefix range scan per table finds it. A random fingerprint shares a given
// p-bit prefix with probability 2^-p, so a table yields about n / 2^p
// candidates among n entries of one scope.
//
// A key is [scope id: 8][table: 1][prefix: P bytes][rest: R bytes], where the
// prefix field holds the table's p bits left-aligned and zero-padded to a
// byte boundary, so a fixed-length RocksDB prefix extractor (and its prefix
// Bloom filter) covers exactly the p bits. P and R are the same for every
// table of a layout. Immutable; thread-safe.
class NearLayout {
 public:
  static constexpr int kMaxDistance = 8;
  static constexpr int kMaxTables = 255;  // the table id is one key byte
  // Derived layouts aim for at least this many prefix bits: about ten
  // candidates per table with 10 M entries in a single scope.
  static constexpr int kTargetPrefixBits = 20;
  static constexpr size_t kScopeBytes = 8;

  // max_tables == 0 derives the block count from max_distance (the fewest
  // blocks reaching kTargetPrefixBits within kMaxTables tables); otherwise
  // the most blocks whose C(b, k) tables fit in max_tables.
  static StatusOr<NearLayout> Create(int max_distance, int max_tables);
  // Exactly `blocks` blocks (as stored in a shard's metadata).
  static StatusOr<NearLayout> FromBlocks(int max_distance, int blocks);

  int max_distance() const { return max_distance_; }
  int blocks() const { return blocks_; }
  int tables() const { return static_cast<int>(tables_.size()); }
  int prefix_bits(int table) const { return tables_[table].prefix_bits; }
  int min_prefix_bits() const;

  uint64_t Permute(int table, uint64_t fp) const;
  uint64_t Unpermute(int table, uint64_t permuted) const;

  size_t key_size() const { return kScopeBytes + 1 + prefix_bytes_ + rest_bytes_; }
  // Bytes of a key that identify one probe: scope, table and prefix field.
  size_t probe_prefix_size() const { return kScopeBytes + 1 + prefix_bytes_; }
  // Writes the key of `fp` in `table` to out[0, key_size()).
  void EncodeKey(uint64_t scope_id, int table, uint64_t fp, char* out) const;
  // The fingerprint a key of this layout stores; false when the key is not
  // one (wrong size or table).
  bool DecodeKey(std::string_view key, uint64_t* fp) const;

 private:
  // Moves one block: (value >> from) & mask lands at << to.
  struct Move {
    uint8_t from = 0;
    uint8_t to = 0;
    uint64_t mask = 0;
  };
  struct Table {
    std::vector<Move> moves;
    int prefix_bits = 0;
  };

  NearLayout(int max_distance, int blocks);

  int max_distance_ = 0;
  int blocks_ = 0;
  size_t prefix_bytes_ = 0;
  size_t rest_bytes_ = 0;
  std::vector<Table> tables_;
};

// C(n, k), saturating at UINT64_MAX (only small arguments are used).
uint64_t Binomial(int n, int k);

}  // namespace pagesieve::store
