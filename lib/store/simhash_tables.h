#pragma once

#include <cstdint>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::store {

// The permuted-table layout of the SimHash store for one maximum Hamming
// distance k, after Manku, Jain and Das Sarma (WWW 2007).
//
// The 64 bits are cut into b contiguous blocks (b > k). Two fingerprints
// within distance k differ in at most k blocks, so at least b-k blocks agree
// exactly (pigeonhole). There is one table per choice of b-k blocks, C(b, k)
// tables in all; a table permutes a fingerprint so that its chosen blocks
// come first (the "prefix", p bits), then the other blocks. Every
// fingerprint within distance k of a query therefore shares the query's
// prefix in at least one table. A random fingerprint shares a given p-bit
// prefix with probability 2^-p, so a table yields about n / 2^p candidates
// among n entries. SimHashIndex holds the tables. Immutable; thread-safe.
class NearLayout {
 public:
  static constexpr int kMaxDistance = 8;
  // Each table holds every indexed SimHash once (8 bytes and more).
  static constexpr int kMaxTables = 255;
  // Derived layouts aim for at least this many prefix bits. The index
  // scans a prefix's whole bucket in memory, so a few hundred candidates
  // per table cost less than more tables: at k = 3 this is 4 tables of 16
  // bits, not 10 of 25 (docs/state-store.md, "SimHash store").
  static constexpr int kTargetPrefixBits = 16;

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
  // The table's prefix of `fp`: its first prefix_bits(table) bits once permuted.
  uint64_t Prefix(int table, uint64_t fp) const;

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
  std::vector<Table> tables_;
};

// C(n, k), saturating at UINT64_MAX (only small arguments are used).
uint64_t Binomial(int n, int k);

}  // namespace pagesieve::store
