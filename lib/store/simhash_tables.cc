#include "store/simhash_tables.h"

#include <algorithm>
#include <limits>
#include <string>

namespace pagesieve::store {
namespace {

uint64_t MaskOf(int len) { return len >= 64 ? ~uint64_t{0} : (uint64_t{1} << len) - 1; }

// Block i of b covers `len` bits starting `start` bits from the most
// significant end; the first 64 % b blocks are one bit longer.
struct Block {
  int start = 0;
  int len = 0;
};

std::vector<Block> CutBlocks(int b) {
  std::vector<Block> blocks(b);
  int start = 0;
  for (int i = 0; i < b; ++i) {
    blocks[i] = {start, 64 / b + (i < 64 % b ? 1 : 0)};
    start += blocks[i].len;
  }
  return blocks;
}

// Every m-element subset of {0..n-1}, in lexicographic order.
std::vector<std::vector<int>> Combinations(int n, int m) {
  std::vector<std::vector<int>> out;
  std::vector<int> c(m);
  for (int i = 0; i < m; ++i) c[i] = i;
  while (true) {
    out.push_back(c);
    int i = m - 1;
    while (i >= 0 && c[i] == n - m + i) --i;
    if (i < 0) return out;
    ++c[i];
    for (int j = i + 1; j < m; ++j) c[j] = c[j - 1] + 1;
  }
}

// The shortest prefix among the tables of (blocks, k): the b-k shortest blocks.
int MinPrefixBits(int blocks, int k) {
  std::vector<Block> cut = CutBlocks(blocks);
  int bits = 0;
  for (int i = 0; i < blocks - k; ++i) bits += cut[blocks - 1 - i].len;
  return bits;
}

int DeriveBlocks(int k) {
  if (k == 0) return 1;
  int best = k + 1;
  for (int b = k + 1; b <= 64 && Binomial(b, k) <= NearLayout::kMaxTables; ++b) {
    best = b;
    if (MinPrefixBits(b, k) >= NearLayout::kTargetPrefixBits) break;
  }
  return best;
}

}  // namespace

uint64_t Binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  k = std::min(k, n - k);
  uint64_t r = 1;
  for (int i = 1; i <= k; ++i) {
    // r * (n - k + i) / i is exact at every step; stop before overflowing.
    if (r > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(n)) {
      return std::numeric_limits<uint64_t>::max();
    }
    r = r * static_cast<uint64_t>(n - k + i) / static_cast<uint64_t>(i);
  }
  return r;
}

StatusOr<NearLayout> NearLayout::Create(int max_distance, int max_tables) {
  if (max_distance < 0 || max_distance > kMaxDistance) {
    return Status::InvalidArgument("config key 'near.max_distance' must be between 0 and " +
                                   std::to_string(kMaxDistance));
  }
  if (max_tables < 0 || max_tables > kMaxTables) {
    return Status::InvalidArgument("config key 'near.tables' must be between 0 (derived) and " +
                                   std::to_string(kMaxTables));
  }
  const int k = max_distance;
  if (max_tables == 0 || k == 0) return FromBlocks(k, DeriveBlocks(k));
  if (static_cast<uint64_t>(max_tables) < Binomial(k + 1, k)) {
    return Status::InvalidArgument("config key 'near.tables' must be at least " +
                                   std::to_string(k + 1) + " for near.max_distance " +
                                   std::to_string(k) + " (or 0 to derive it)");
  }
  int b = k + 1;
  while (b < 64 && Binomial(b + 1, k) <= static_cast<uint64_t>(max_tables)) ++b;
  return FromBlocks(k, b);
}

StatusOr<NearLayout> NearLayout::FromBlocks(int max_distance, int blocks) {
  if (max_distance < 0 || max_distance > kMaxDistance || blocks <= max_distance || blocks > 64 ||
      Binomial(blocks, max_distance) > kMaxTables) {
    return Status::InvalidArgument("no SimHash table layout with " + std::to_string(blocks) +
                                   " blocks for distance " + std::to_string(max_distance));
  }
  return NearLayout(max_distance, blocks);
}

NearLayout::NearLayout(int max_distance, int blocks)
    : max_distance_(max_distance), blocks_(blocks) {
  const std::vector<Block> cut = CutBlocks(blocks);
  for (const std::vector<int>& chosen : Combinations(blocks, blocks - max_distance)) {
    Table table;
    std::vector<bool> in_prefix(blocks, false);
    for (int i : chosen) in_prefix[i] = true;
    int pos = 0;  // bits placed so far, from the most significant end
    auto place = [&](const Block& blk) {
      table.moves.push_back({static_cast<uint8_t>(64 - blk.start - blk.len),
                             static_cast<uint8_t>(64 - pos - blk.len), MaskOf(blk.len)});
      pos += blk.len;
    };
    for (int i : chosen) place(cut[i]);
    table.prefix_bits = pos;
    for (int i = 0; i < blocks; ++i) {
      if (!in_prefix[i]) place(cut[i]);
    }
    tables_.push_back(std::move(table));
  }
}

int NearLayout::min_prefix_bits() const {
  int bits = 64;
  for (const Table& t : tables_) bits = std::min(bits, t.prefix_bits);
  return bits;
}

uint64_t NearLayout::Permute(int table, uint64_t fp) const {
  uint64_t out = 0;
  for (const Move& m : tables_[table].moves) out |= ((fp >> m.from) & m.mask) << m.to;
  return out;
}

uint64_t NearLayout::Unpermute(int table, uint64_t permuted) const {
  uint64_t out = 0;
  for (const Move& m : tables_[table].moves) out |= ((permuted >> m.to) & m.mask) << m.from;
  return out;
}

uint64_t NearLayout::Prefix(int table, uint64_t fp) const {
  const int p = tables_[table].prefix_bits;
  return p == 64 ? Permute(table, fp) : Permute(table, fp) >> (64 - p);
}

}  // namespace pagesieve::store
