// TimeDecayedFuse: rebuilding the sealed and open filters from the key logs
// when the live sealed generations change.
#include <cstring>

#include "store/bloom/bloom_format.h"
#include "store/bloom/generations.h"
#include "store/fuse/time_decayed_fuse.h"

namespace pagesieve::store {

using fuse::kLogSlots;

// The keys of one generation: its chunks in the store, then those not yet
// written. A chunk must be there, stamped with this filter and generation:
// anything else means the store lost or mixed up pages.
Status TimeDecayedFuse::ReadLog(const Log& log, int slot, std::vector<uint64_t>* out) const {
  if (log.stored.chunks > 0 && !store_) {
    return Status::FailedPrecondition("fuse: key log to read but no page store attached");
  }
  for (uint32_t c = 0; c < log.stored.chunks; ++c) {
    const uint32_t id = fuse::LogPageId(slot, c);
    PS_ASSIGN_OR_RETURN(std::string page, store_->Read(id));
    if (page.size() < bloom::kPagePrefixBytes ||
        (page.size() - bloom::kPagePrefixBytes) % sizeof(uint64_t) != 0) {
      return Status::Corruption("fuse key log chunk " + std::to_string(id) + ": bad length");
    }
    PS_ASSIGN_OR_RETURN(bloom::PagePrefix prefix,
                        bloom::DecodePagePrefix(page, page.size() - bloom::kPagePrefixBytes));
    if (prefix.tag != param_tag_ || prefix.page_id != id ||
        prefix.generation != log.stored.generation) {
      return Status::Corruption("fuse key log chunk " + std::to_string(id) +
                                ": of another filter or generation");
    }
    const size_t n = (page.size() - bloom::kPagePrefixBytes) / sizeof(uint64_t);
    const size_t at = out->size();
    out->resize(at + n);
    std::memcpy(out->data() + at, page.data() + bloom::kPagePrefixBytes, n * sizeof(uint64_t));
  }
  out->insert(out->end(), log.pending.begin(), log.pending.end());
  return Status::Ok();
}

// Sealed: every live generation before the open one; open: the watermark's.
// Logs of expired generations are dropped. Everything is rewritten at the
// next checkpoint under a new build stamp, so stale pages are recognised.
Status TimeDecayedFuse::Rebuild() {
  const Duration w = geometry_.generation_width;
  const int64_t newest = bloom::GenerationOf(watermark_ms_, w);
  const int64_t oldest = bloom::OldestLiveGeneration(watermark_ms_, options_.ttl, w);
  std::vector<uint64_t> sealed_keys;
  std::vector<uint64_t> open_keys;
  for (int s = 0; s < kLogSlots; ++s) {
    Log& log = logs_[s];
    if (log.stored.generation == bloom::kNoGeneration) continue;
    if (log.stored.generation < oldest) {
      log = Log{};
      continue;
    }
    PS_RETURN_IF_ERROR(
        ReadLog(log, s, log.stored.generation >= newest ? &open_keys : &sealed_keys));
  }
  PS_ASSIGN_OR_RETURN(sealed_, fuse::BinaryFuse::Build(&sealed_keys, geometry_.fingerprint_bits));
  std::memset(open_.data(), 0, open_.size());
  open_bits_set_ = 0;
  for (uint64_t key : open_keys) InsertOpen(key);
  built_oldest_ = oldest;
  built_newest_ = newest;
  late_in_open_ = 0;
  ++build_;
  ++rebuilds_;
  all_dirty_ = true;
  return Status::Ok();
}

}  // namespace pagesieve::store
