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
#include "store/bloom/bloom_options.h"
#include "store/cuckoo/cuckoo_format.h"
#include "store/cuckoo/cuckoo_geometry.h"
#include "store/cuckoo/packed_slots.h"
#include "store/time_decayed_filter.h"

namespace pagesieve::store {

// The URL store's cuckoo filter over 64-bit key hashes, expiring by event
// time like TimeDecayedBloom but paying for it with 3 bits per key instead
// of ORing G + 1 filters (docs/bloom-filter.md, "The cuckoo filter").
//
// Each key is a fingerprint in one of two buckets of four slots; beside it
// a 3-bit tag holds the generation (ttl / G of event time) of the key's last
// insert, modulo 8. A slot answers only while its generation is live, so a
// generation expires as a whole the moment the watermark passes it, with no
// write; before a tag value is used again (once per generation), one pass
// over the table empties the slots of expired generations. Since G + 1 <= 8
// generations are live at once, a tag names its generation unambiguously
// relative to the newest one.
//
// At watermark W a key last inserted at t is reported while t >= W - ttl,
// and no longer once its generation ended at or before W - ttl (the same
// bounds as the Bloom filter). An absent key is reported when its
// fingerprint matches one of the 8 live slots it is compared with.
//
// A full table does not lose keys: an insert that finds no slot after
// kMaxKicks displacements keeps the displaced entry in a stash beside the
// table, looked up with it and moved back once expiry frees room;
// stashed() says how many (a sign that url.expected_items is too low).
//
// Persistence as for the Bloom filter: EncodeHeader(), the dirty pages, and
// ClearDirty() at a checkpoint; Restore(header) and LoadPage() to reopen.
// Emptying expired slots writes no page: a page carries the newest
// generation at its last write, and LoadPage() drops what has expired since.
//
// Not thread-safe: one filter per shard. Const methods may run concurrently.
class TimeDecayedCuckoo final : public TimeDecayedFilter {
 public:
  static constexpr int kMaxKicks = 500;

  // InvalidArgument for options out of range (generations must be <= 7).
  static StatusOr<std::unique_ptr<TimeDecayedCuckoo>> Create(const BloomOptions& options);
  // A filter with the options, geometry, watermark and stash of `header` and
  // empty slots: load the pages with LoadPage().
  static StatusOr<std::unique_ptr<TimeDecayedCuckoo>> Restore(std::string_view header);

  FilterKind kind() const override { return FilterKind::kCuckoo; }
  void Insert(uint64_t key_hash, EventTime t) override;
  bool MayContain(uint64_t key_hash) const override;
  void AdvanceWatermark(EventTime watermark) override;
  EventTime watermark() const override { return EventTimeFromMillis(watermark_ms_); }

  std::string EncodeHeader() const override;
  void ForEachDirtyPage(
      const std::function<void(uint32_t page_id, std::string_view bytes)>& fn) const override;
  size_t DirtyPageCount() const override { return dirty_count_; }
  void ClearDirty() override;
  Status LoadPage(uint32_t page_id, std::string_view bytes) override;

  size_t MemoryBytes() const override;
  // Live entries over slots.
  double FillRatio() const override;
  double EstimatedFalsePositiveRate() const override;
  const BloomOptions& options() const override { return options_; }
  int live_generations() const override;
  uint64_t late_inserts() const override { return late_inserts_; }

  const cuckoo::CuckooGeometry& geometry() const { return geometry_; }
  // Entries held in slots whose generation is live.
  uint64_t live_entries() const;
  // Entries that found no slot and wait in the stash.
  size_t stashed() const { return stash_.size(); }
  // Passes over the table that emptied expired slots (one per generation).
  uint64_t sweeps() const { return sweeps_; }

  // Public for std::make_unique; use Create() or Restore().
  struct PrivateTag {};
  TimeDecayedCuckoo(PrivateTag, const BloomOptions& options, const cuckoo::CuckooGeometry& geometry,
                    bloom::BitArena bytes);

 private:
  static StatusOr<std::unique_ptr<TimeDecayedCuckoo>> Make(const BloomOptions& options,
                                                           const cuckoo::CuckooGeometry& geometry);
  uint64_t BucketOf(uint64_t key_hash) const;
  uint32_t FingerprintOf(uint64_t key_hash) const;
  uint64_t AltBucket(uint64_t bucket, uint32_t fingerprint) const;
  bool Live(uint32_t value) const { return (live_tags_ >> (value & (cuckoo::kTagValues - 1))) & 1; }
  int64_t GenerationOfTag(uint32_t tag, int64_t newest) const;
  bool BucketHas(uint64_t bucket, uint32_t fingerprint) const;
  bool StashHas(uint64_t bucket, uint32_t fingerprint) const;
  bool Refresh(uint64_t bucket, uint32_t fingerprint, int64_t generation);
  bool PlaceInFree(uint64_t bucket, uint32_t value);
  void Displace(uint64_t bucket, uint32_t value);
  void WriteSlot(uint64_t slot, uint32_t value);
  void Sweep(int64_t keep_from);
  void RetryStash();
  void UpdateLiveTags();
  void MarkDirty(uint64_t page);

  BloomOptions options_;
  cuckoo::CuckooGeometry geometry_;
  uint32_t param_tag_;  // CuckooParameterTag, stamped on pages
  int page_shift_;      // log2(buckets per page)
  bloom::BitArena bytes_;
  cuckoo::PackedSlots slots_;
  int64_t watermark_ms_ = 0;
  int64_t newest_ = 0;  // generation of the watermark: tags are read against it
  int64_t oldest_ = 0;  // oldest live generation
  uint8_t live_tags_ = 0;
  // Entries per tag value in the table (the stash not included).
  std::array<uint64_t, cuckoo::kTagValues> tag_counts_{};
  std::vector<cuckoo::StashEntry> stash_;
  std::vector<uint64_t> dirty_;  // one bit per page
  size_t dirty_count_ = 0;
  uint64_t late_inserts_ = 0;
  uint64_t sweeps_ = 0;
  uint64_t rng_ = 0x9E3779B97F4A7C15ull;  // chooses the slot to displace
};

}  // namespace pagesieve::store
