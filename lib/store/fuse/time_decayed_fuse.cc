#include "store/fuse/time_decayed_fuse.h"

#include <algorithm>
#include <cmath>
#include <new>

#include "store/bloom/bloom_math.h"
#include "store/bloom/generations.h"
#include "store/bloom/probe.h"
#include "store/fuse/fuse_rebuild.h"

namespace pagesieve::store {

using fuse::kLogSlots;

TimeDecayedFuse::TimeDecayedFuse(PrivateTag, const BloomOptions& options,
                                 const fuse::FuseGeometry& geometry, bloom::BitArena open)
    : options_(options),
      geometry_(geometry),
      param_tag_(fuse::FuseParameterTag(options, geometry)),
      open_(std::move(open)),
      open_dirty_((geometry.open_blocks + 63) / 64, 0) {}

StatusOr<std::unique_ptr<TimeDecayedFuse>> TimeDecayedFuse::Make(
    const BloomOptions& options, const fuse::FuseGeometry& geometry) {
  if (geometry.open_blocks >= fuse::kLogPageBase - fuse::kOpenPageBase) {
    return Status::InvalidArgument("fuse: url.expected_items too large for the page ids");
  }
  PS_ASSIGN_OR_RETURN(bloom::BitArena open, bloom::BitArena::Allocate(geometry.open_bytes()));
  try {
    return std::make_unique<TimeDecayedFuse>(PrivateTag{}, options, geometry, std::move(open));
  } catch (const std::bad_alloc&) {
    return Status::ResourceExhausted("fuse: out of memory for the dirty-page map");
  }
}

StatusOr<std::unique_ptr<TimeDecayedFuse>> TimeDecayedFuse::Create(const BloomOptions& options) {
  PS_ASSIGN_OR_RETURN(fuse::FuseGeometry geometry, fuse::ComputeFuseGeometry(options));
  PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedFuse> f, Make(options, geometry));
  // Generation 0 is open at the epoch; nothing is sealed yet.
  f->built_oldest_ = bloom::OldestLiveGeneration(0, options.ttl, geometry.generation_width);
  f->built_newest_ = 0;
  f->sealed_dirty_ = true;
  return f;
}

StatusOr<std::unique_ptr<TimeDecayedFuse>> TimeDecayedFuse::Restore(std::string_view header) {
  PS_ASSIGN_OR_RETURN(fuse::FuseHeader h, fuse::DecodeFuseHeader(header));
  PS_ASSIGN_OR_RETURN(std::unique_ptr<TimeDecayedFuse> f, Make(h.options, h.geometry));
  PS_ASSIGN_OR_RETURN(f->sealed_, fuse::BinaryFuse::Allocate(h.sealed));
  f->watermark_ms_ = h.watermark_ms;
  f->build_ = h.build;
  f->built_oldest_ = h.built_oldest;
  f->built_newest_ = h.built_newest;
  f->late_in_open_ = h.late_in_open;
  for (int s = 0; s < kLogSlots; ++s) f->logs_[s].stored = h.logs[s];
  f->restored_behind_ = f->NeedsRebuild();
  return f;
}

void TimeDecayedFuse::AttachPageStore(std::unique_ptr<FilterPageStore> store) {
  store_ = std::move(store);
}

bool TimeDecayedFuse::MayContain(uint64_t key_hash) const {
  if (!status_.ok()) return true;  // no false negatives, even when broken
  const uint64_t* block = reinterpret_cast<const uint64_t*>(open_.data()) +
                          bloom::BlockIndex(key_hash, geometry_.open_blocks) * 8;
  if (bloom::BlockContains(block, bloom::MakeProbeMask(key_hash, geometry_.open_probes))) {
    return true;
  }
  return sealed_.MayContain(key_hash);
}

void TimeDecayedFuse::InsertOpen(uint64_t key_hash) {
  const int added = fuse::InsertIntoOpenBlocks(open_.data(), geometry_, key_hash);
  if (added == 0) return;  // a page only changes when a bit does
  const uint64_t b = bloom::BlockIndex(key_hash, geometry_.open_blocks);
  open_bits_set_ += static_cast<uint64_t>(added);
  uint64_t& word = open_dirty_[b >> 6];
  const uint64_t bit = uint64_t{1} << (b & 63);
  if ((word & bit) == 0) {
    word |= bit;
    ++open_dirty_count_;
  }
}

void TimeDecayedFuse::Insert(uint64_t key_hash, EventTime t) {
  const int64_t ms = ToMillis(t);
  if (ms > watermark_ms_) AdvanceWatermark(t);
  if (ms < watermark_ms_ - options_.ttl.count()) {
    ++late_inserts_;
    return;
  }
  const int64_t generation = bloom::GenerationOf(ms, geometry_.generation_width);
  Log& log = logs_[bloom::SlotOf(generation, kLogSlots)];
  if (log.stored.generation != generation) {
    // The slot's previous generation has expired (G + 1 slots hold every
    // live one); its chunks in the store are overwritten or ignored.
    log = Log{};
    log.stored.generation = generation;
  }
  log.pending.push_back(key_hash);
  ++log.stored.keys;
  InsertOpen(key_hash);
  if (building_.valid()) {
    // The open filter answers for it until the rebuild under way is
    // installed, which then takes it too.
    interim_.push_back(key_hash);
    if (generation < target_newest_) ++interim_late_;
    return;
  }
  if (generation < built_newest_ && ++late_in_open_ > geometry_.keys_per_generation / 4 && !bulk_) {
    StartRebuild();
  }
}

void TimeDecayedFuse::AdvanceWatermark(EventTime watermark) {
  MaybeInstall();
  const int64_t ms = ToMillis(watermark);
  if (ms > watermark_ms_) {
    watermark_ms_ = ms;
  } else if (!restored_behind_) {
    return;
  }
  restored_behind_ = false;
  if (NeedsRebuild() && !bulk_) StartRebuild();
}

// Against the rebuild under way, if there is one: it already covers the
// generations it was planned for.
bool TimeDecayedFuse::NeedsRebuild() const {
  const Duration w = geometry_.generation_width;
  const int64_t newest = building_.valid() ? target_newest_ : built_newest_;
  const int64_t oldest = building_.valid() ? target_oldest_ : built_oldest_;
  return bloom::GenerationOf(watermark_ms_, w) != newest ||
         bloom::OldestLiveGeneration(watermark_ms_, options_.ttl, w) != oldest;
}

Status TimeDecayedFuse::FinishBulkLoad() {
  bulk_ = false;
  if (late_in_open_ > 0 || NeedsRebuild()) StartRebuild();
  return status_;
}

uint64_t TimeDecayedFuse::pending_keys() const {
  uint64_t n = 0;
  for (const Log& log : logs_) n += log.pending.size();
  return n;
}

int TimeDecayedFuse::live_generations() const {
  const Duration w = geometry_.generation_width;
  const int64_t oldest = bloom::OldestLiveGeneration(watermark_ms_, options_.ttl, w);
  int n = 0;
  for (const Log& log : logs_) {
    if (log.stored.generation != bloom::kNoGeneration && log.stored.generation >= oldest &&
        log.stored.keys > 0) {
      ++n;
    }
  }
  return n;
}

size_t TimeDecayedFuse::MemoryBytes() const {
  size_t pending = interim_.capacity() * sizeof(uint64_t);
  for (const Log& log : logs_) pending += log.pending.capacity() * sizeof(uint64_t);
  return sizeof(*this) + sealed_.MemoryBytes() + open_.size() +
         open_dirty_.capacity() * sizeof(uint64_t) + pending;
}

double TimeDecayedFuse::FillRatio() const {
  return static_cast<double>(open_bits_set_) / (static_cast<double>(geometry_.open_blocks) * 512);
}

double TimeDecayedFuse::EstimatedFalsePositiveRate() const {
  const double sealed = sealed_keys() > 0 ? std::ldexp(1.0, -geometry_.fingerprint_bits) : 0.0;
  const double open = bloom::BlockedFalsePositiveRate(
      bloom::KeysPerBlockForFill(FillRatio(), geometry_.open_probes), geometry_.open_probes);
  return 1.0 - (1.0 - sealed) * (1.0 - open);
}

}  // namespace pagesieve::store
