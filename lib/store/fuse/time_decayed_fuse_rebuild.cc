// TimeDecayedFuse: rebuilding the sealed and open filters from the key logs
// when the live sealed generations change, on the shard's thread or beside
// it.
#include <algorithm>
#include <future>

#include "store/bloom/generations.h"
#include "store/fuse/time_decayed_fuse.h"

namespace pagesieve::store {

using fuse::kLogSlots;

// Sealed: every live generation before the open one; open: the watermark's.
// Logs of expired generations are dropped here: no later plan reads them.
fuse::RebuildPlan TimeDecayedFuse::PlanRebuild() {
  const Duration w = geometry_.generation_width;
  fuse::RebuildPlan plan;
  plan.newest = bloom::GenerationOf(watermark_ms_, w);
  plan.oldest = bloom::OldestLiveGeneration(watermark_ms_, options_.ttl, w);
  plan.param_tag = param_tag_;
  plan.geometry = geometry_;
  for (int s = 0; s < kLogSlots; ++s) {
    Log& log = logs_[s];
    if (log.stored.generation == bloom::kNoGeneration) continue;
    if (log.stored.generation < plan.oldest) {
      log = Log{};
      continue;
    }
    plan.logs.push_back(
        fuse::LogSnapshot{s, log.stored, log.pending, log.stored.generation >= plan.newest});
  }
  return plan;
}

void TimeDecayedFuse::StartRebuild() {
  if (!status_.ok()) return;
  // One rebuild at a time: a generation that passes while one runs waits
  // for it (only a backfill moves event time that fast).
  if (building_.valid()) Install(building_.get());
  if (!status_.ok()) return;
  fuse::RebuildPlan plan = PlanRebuild();
  if (!background_ || bulk_) {
    Install(fuse::BuildFilters(plan, store_.get()));
    return;
  }
  target_oldest_ = plan.oldest;
  target_newest_ = plan.newest;
  built_ready_->store(false, std::memory_order_relaxed);
  building_ = std::async(
      std::launch::async,
      [plan = std::move(plan), store = store_.get(), ready = built_ready_]() {
        fuse::RebuiltFilters built = fuse::BuildFilters(plan, store);
        ready->store(true, std::memory_order_release);
        return built;
      });
}

// Everything is rewritten at the next checkpoint under a new build stamp,
// so stale pages are recognised. Keys inserted while a background rebuild
// ran are in the old open filter, which answered for them; they go into
// the new one now.
void TimeDecayedFuse::Install(fuse::RebuiltFilters built) {
  std::vector<uint64_t> interim;
  interim.swap(interim_);
  if (!built.status.ok()) {
    status_ = built.status;
    return;
  }
  sealed_ = std::move(built.sealed);
  open_ = std::move(built.open);
  open_bits_set_ = built.open_bits_set;
  built_oldest_ = built.oldest;
  built_newest_ = built.newest;
  for (uint64_t key : interim) {
    open_bits_set_ +=
        static_cast<uint64_t>(fuse::InsertIntoOpenBlocks(open_.data(), geometry_, key));
  }
  late_in_open_ = interim_late_;
  interim_late_ = 0;
  ++build_;
  ++rebuilds_;
  sealed_dirty_ = true;
  MarkOpenBlocksDirty();
}

void TimeDecayedFuse::MarkOpenBlocksDirty() {
  std::fill(open_dirty_.begin(), open_dirty_.end(), 0);
  open_dirty_count_ = 0;
  const auto* words = reinterpret_cast<const uint64_t*>(open_.data());
  for (uint64_t b = 0; b < geometry_.open_blocks; ++b) {
    uint64_t any = 0;
    for (int w = 0; w < 8; ++w) any |= words[b * 8 + w];
    if (any == 0) continue;
    open_dirty_[b >> 6] |= uint64_t{1} << (b & 63);
    ++open_dirty_count_;
  }
}

void TimeDecayedFuse::MaybeInstall() {
  if (building_.valid() && built_ready_->load(std::memory_order_acquire)) {
    Install(building_.get());
  }
}

Status TimeDecayedFuse::FinishRebuild() {
  if (building_.valid()) Install(building_.get());
  return status_;
}

}  // namespace pagesieve::store
