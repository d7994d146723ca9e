#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "store/bloom/bit_arena.h"
#include "store/bloom/bloom_geometry.h"
#include "store/bloom/bloom_options.h"
#include "store/time_decayed_filter.h"

namespace pagesieve::store {

// The URL store's time-decayed Bloom filter over 64-bit key hashes: in front
// of the exact store it answers "certainly not seen" without a RocksDB read,
// and in url.mode = bloom it is the only answer (docs/bloom-filter.md).
//
// Event time is cut into generations of ttl / G. An insert sets bits in the
// generation of its event time; a lookup ORs every generation that still
// holds live times; a generation wholly older than watermark - ttl is
// cleared and never answers again. The oldest live generation is usually
// partly expired, so up to G + 1 are live at once and memory holds G + 1
// slots used as a ring. Each key's bits lie in one 64-byte block per
// generation, and a key's G + 1 blocks lie within (G + 1) * page_bytes.
//
// At watermark W (the largest event time seen), a key last inserted at t is
//  - always reported while t >= W - ttl (no false negatives while live);
//  - no longer answered for once its generation ended at or before W - ttl,
//    that is from W = t + ttl + ceil(ttl / G) at the latest;
//  - in between, still reported (its partly expired generation answers);
// and a key never inserted (or expired) is reported with the probability
// EstimatedFalsePositiveRate(), at most the configured rate while no
// generation holds more than its share of expected_items.
//
// Persistence: at each checkpoint the owner writes EncodeHeader() and every
// page ForEachDirtyPage() yields, then calls ClearDirty(). To reopen, it
// calls Restore() with the header and LoadPage() for every stored page.
// Clearing an expired generation writes nothing: pages carry their
// generation, and LoadPage() ignores those of generations no longer held.
//
// Not thread-safe: one filter per shard, used by the shard's thread. Const
// methods may run concurrently with each other.
class TimeDecayedBloom final : public TimeDecayedFilter {
 public:
  static StatusOr<std::unique_ptr<TimeDecayedBloom>> Create(const BloomOptions& options);
  // A filter with the options, geometry, watermark and generations stored in
  // `header` and no bits yet: load them with LoadPage(). The stored options
  // win over the configured ones (compare options() to decide what to do
  // when they differ).
  static StatusOr<std::unique_ptr<TimeDecayedBloom>> Restore(std::string_view header);

  // Records that the key was seen at event time `t`. A `t` after the
  // watermark raises it first (an insert is an observation); a `t` before
  // watermark - ttl is ignored, since the key would already be expired.
  FilterKind kind() const override { return FilterKind::kBloom; }
  void Insert(uint64_t key_hash, EventTime t) override;
  // Whether the key may have been inserted and not expired, at the current
  // watermark. False means certainly not.
  bool MayContain(uint64_t key_hash) const override;
  // Raises the watermark (never lowers it) and clears every generation that
  // is now wholly expired: O(G) however far it jumps.
  void AdvanceWatermark(EventTime watermark) override;
  EventTime watermark() const override { return EventTimeFromMillis(watermark_ms_); }

  std::string EncodeHeader() const override;
  // Calls `fn` for each page changed since the last ClearDirty(), in page id
  // order. `bytes` is valid only during the call.
  void ForEachDirtyPage(
      const std::function<void(uint32_t page_id, std::string_view bytes)>& fn) const override;
  size_t DirtyPageCount() const override { return dirty_count_; }
  void ClearDirty() override;
  // Loads one page written by ForEachDirtyPage() of this filter or of the
  // filter it was restored from. A page of a generation the header no longer
  // holds is stale and ignored. A page of the wrong length, id, or filter,
  // or of a generation the header cannot explain, is Corruption.
  Status LoadPage(uint32_t page_id, std::string_view bytes) override;

  // Bytes of memory held: bits, dirty map and bookkeeping.
  size_t MemoryBytes() const override;
  // Fraction of bits set over the generations that currently answer.
  double FillRatio() const override;
  // The rate at which a key never inserted is reported now, estimated from
  // each live generation's fill (so duplicate inserts do not inflate it).
  double EstimatedFalsePositiveRate() const override;

  const BloomOptions& options() const override { return options_; }
  const bloom::BloomGeometry& geometry() const { return geometry_; }
  // Generations holding keys that still answer lookups.
  int live_generations() const override { return live_count_; }
  // Inserts ignored because their event time was already expired.
  uint64_t late_inserts() const override { return late_inserts_; }

  // Public for std::make_unique; use Create() or Restore().
  struct PrivateTag {};
  TimeDecayedBloom(PrivateTag, const BloomOptions& options, const bloom::BloomGeometry& geometry,
                   bloom::BitArena bits);

 private:
  struct Slot {
    int64_t generation;
    uint64_t inserts = 0;
    uint64_t set_bits = 0;
  };

  static StatusOr<std::unique_ptr<TimeDecayedBloom>> Make(const BloomOptions& options,
                                                          const bloom::BloomGeometry& geometry);
  char* PageData(uint64_t page_id) { return bits_.data() + page_id * geometry_.page_bytes; }
  const char* PageData(uint64_t page_id) const {
    return bits_.data() + page_id * geometry_.page_bytes;
  }
  uint64_t PageOf(int slot, uint64_t block) const {
    return (block >> page_block_shift_) * geometry_.slots + slot;
  }
  size_t OffsetInPage(uint64_t block) const {
    return (block & (geometry_.blocks_per_page() - 1)) * bloom::kBlockBytes;
  }
  int64_t OldestLiveGeneration() const;
  void ClaimSlot(int slot, int64_t generation);
  void ClearSlot(int slot);
  void RebuildLiveSlots();
  void MarkDirty(uint64_t page_id);
  void MarkClean(uint64_t page_id);
  Status CheckPageGeneration(uint32_t page_id, int64_t generation) const;

  BloomOptions options_;
  bloom::BloomGeometry geometry_;
  uint32_t tag_;          // BloomParameterTag(options_, geometry_), stamped on pages
  int page_block_shift_;  // log2(blocks per page)
  uint64_t blocks_per_slot_;
  bloom::BitArena bits_;  // page_count() pages, page id = group * slots + slot
  int64_t watermark_ms_ = 0;
  std::vector<Slot> slots_;
  // The slots holding a generation, in no particular order: what lookups scan.
  std::array<uint8_t, kMaxBloomGenerations + 1> live_slots_{};
  int live_count_ = 0;
  std::vector<uint64_t> dirty_;  // one bit per page
  size_t dirty_count_ = 0;
  uint64_t late_inserts_ = 0;
};

}  // namespace pagesieve::store
