#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "common/types.h"
#include "store/bloom/bit_arena.h"
#include "store/bloom/bloom_options.h"
#include "store/fuse/binary_fuse.h"
#include "store/fuse/fuse_format.h"
#include "store/fuse/fuse_geometry.h"
#include "store/fuse/fuse_rebuild.h"
#include "store/time_decayed_filter.h"

namespace pagesieve::store {

// The URL store's filter with the fewest bits per live key
// (docs/bloom-filter.md, "The fuse filter"): one static binary fuse filter
// over the keys of every live sealed generation, plus a blocked Bloom
// filter of the open generation (the one holding the watermark), sized for
// 1/G of the live keys. A lookup asks both: two filters instead of G + 1.
//
// A static filter cannot forget a generation, so it is rebuilt whenever the
// live sealed generations change: when the open generation is sealed (the
// watermark enters a new one) and when the oldest expires (the same moment
// when ttl is a multiple of ttl / G). The keys come from per-generation key
// logs, which live in the page store (the shard's bloom column family):
// each checkpoint writes the keys inserted since the previous one as a
// chunk page, and only those stay in memory meanwhile.
//
// Expiry is exact at generation boundaries, as for the Bloom filter: a key
// last inserted at t answers while t >= W - ttl and no longer once its
// generation has ended at or before W - ttl. An insert into a live sealed
// generation (an event late by less than the TTL) goes to its generation's
// log and to the open filter, which answers for it until the next rebuild
// (at the latest when the open generation is sealed; no sealed generation
// expires before then when ttl is a multiple of ttl / G, and if it does
// the rebuild at its expiry drops the key). More than n_g / 4 of them
// rebuild at once, to keep the open filter at its design load.
//
// A rebuild reads every live key, so at 10 M keys it takes seconds. Where
// the filter's answers decide no verdict (url.mode = exact: every "maybe"
// is checked against the URL entries), AllowBackgroundRebuilds() runs it on
// a thread of its own: the filter as it was goes on answering, its open
// filter taking every insert meanwhile (so there is no false negative), and
// the result is installed at the next insert or watermark once it is done.
// Where the answers are verdicts (url.mode = bloom), the moment a rebuild
// takes effect must be the same in a replay, so it runs on the shard's
// thread. A checkpoint taken while a rebuild runs writes the filter as it
// was; a filter restored from it rebuilds again.
//
// Not thread-safe: one filter per shard, used from one thread (a rebuild's
// own thread reads only its plan and committed pages). Const methods may
// run concurrently.
class TimeDecayedFuse final : public TimeDecayedFilter {
 public:
  // InvalidArgument for options out of range (generations must be 8).
  static StatusOr<std::unique_ptr<TimeDecayedFuse>> Create(const BloomOptions& options);
  // A filter as `header` describes it, with zeroed bits: load the sealed and
  // open pages with LoadPage() and attach the page store for the logs.
  static StatusOr<std::unique_ptr<TimeDecayedFuse>> Restore(std::string_view header);

  FilterKind kind() const override { return FilterKind::kFuse; }
  void Insert(uint64_t key_hash, EventTime t) override;
  bool MayContain(uint64_t key_hash) const override;
  void AdvanceWatermark(EventTime watermark) override;
  EventTime watermark() const override { return EventTimeFromMillis(watermark_ms_); }

  std::string EncodeHeader() const override;
  void ForEachDirtyPage(
      const std::function<void(uint32_t page_id, std::string_view bytes)>& fn) const override;
  size_t DirtyPageCount() const override;
  void ClearDirty() override;
  Status LoadPage(uint32_t page_id, std::string_view bytes) override;

  size_t MemoryBytes() const override;
  // The open filter's fraction of bits set.
  double FillRatio() const override;
  double EstimatedFalsePositiveRate() const override;
  const BloomOptions& options() const override { return options_; }
  int live_generations() const override;
  uint64_t late_inserts() const override { return late_inserts_; }

  void AttachPageStore(std::unique_ptr<FilterPageStore> store) override;
  uint32_t LoadedPageEnd() const override { return fuse::kLogPageBase; }
  Status status() const override { return status_; }
  void BeginBulkLoad() override { bulk_ = true; }
  Status FinishBulkLoad() override;
  void AllowBackgroundRebuilds() override { background_ = true; }
  Status FinishRebuild() override;
  // A rebuild runs beside the shard's thread, not installed yet.
  bool rebuilding() const { return building_.valid(); }

  const fuse::FuseGeometry& geometry() const { return geometry_; }
  // Distinct keys in the sealed filter.
  uint64_t sealed_keys() const { return sealed_.shape().keys; }
  // Keys inserted since the last checkpoint (in memory until it writes them).
  uint64_t pending_keys() const;
  uint64_t rebuilds() const { return rebuilds_; }

  // Public for std::make_unique; use Create() or Restore().
  struct PrivateTag {};
  TimeDecayedFuse(PrivateTag, const BloomOptions& options, const fuse::FuseGeometry& geometry,
                  bloom::BitArena open);

 private:
  struct Log {
    fuse::LogSlot stored;           // chunks counts only those already written
    std::vector<uint64_t> pending;  // inserted since the last checkpoint
  };

  static StatusOr<std::unique_ptr<TimeDecayedFuse>> Make(const BloomOptions& options,
                                                         const fuse::FuseGeometry& geometry);
  void InsertOpen(uint64_t key_hash);
  bool NeedsRebuild() const;
  // Rebuilds on this thread, or starts a background rebuild (after
  // installing one under way); a failure sets status_.
  void StartRebuild();
  fuse::RebuildPlan PlanRebuild();
  void Install(fuse::RebuiltFilters built);
  // Installs a background rebuild that has finished.
  void MaybeInstall();
  // After a rebuild: every open block with a bit set is to be written.
  void MarkOpenBlocksDirty();
  void ForEachLogChunk(
      const std::function<void(uint32_t page_id, std::string_view bytes)>& fn) const;
  static uint32_t PendingChunks(const Log& log);
  uint64_t SealedPages() const;

  BloomOptions options_;
  fuse::FuseGeometry geometry_;
  uint32_t param_tag_;
  int64_t watermark_ms_ = 0;
  uint64_t build_ = 0;
  int64_t built_oldest_ = 0;
  int64_t built_newest_ = 0;
  fuse::BinaryFuse sealed_;
  bloom::BitArena open_;  // open_blocks 64-byte blocks
  uint64_t open_bits_set_ = 0;
  std::array<Log, fuse::kLogSlots> logs_;
  std::vector<uint64_t> open_dirty_;  // one bit per open block
  size_t open_dirty_count_ = 0;
  // A rebuild made a new sealed filter: every sealed page is written. Its
  // open filter's pages are written where they hold a bit (open_dirty_);
  // the others are stamped with an earlier build and load as zero.
  bool sealed_dirty_ = false;
  uint64_t late_in_open_ = 0;
  uint64_t late_inserts_ = 0;
  uint64_t rebuilds_ = 0;
  bool bulk_ = false;
  // Restored from a checkpoint taken while a rebuild ran: the next
  // AdvanceWatermark() rebuilds, even at the same watermark.
  bool restored_behind_ = false;
  Status status_;
  std::unique_ptr<FilterPageStore> store_;

  // A background rebuild (AllowBackgroundRebuilds). While it runs, the keys
  // inserted are kept for the open filter it builds, and the generations it
  // was planned for are its targets.
  bool background_ = false;
  std::vector<uint64_t> interim_;
  uint64_t interim_late_ = 0;  // of those, in generations it seals
  int64_t target_oldest_ = 0;
  int64_t target_newest_ = 0;
  std::shared_ptr<std::atomic<bool>> built_ready_ = std::make_shared<std::atomic<bool>>(false);
  // Last: destroyed first, waiting for its thread, which reads store_.
  std::future<fuse::RebuiltFilters> building_;
};

}  // namespace pagesieve::store
