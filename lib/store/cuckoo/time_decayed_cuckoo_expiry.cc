// TimeDecayedCuckoo: moving the watermark, and emptying expired slots before
// their tag values come round again.
#include <algorithm>

#include "store/bloom/generations.h"
#include "store/cuckoo/time_decayed_cuckoo.h"

namespace pagesieve::store {

using cuckoo::kTagBits;
using cuckoo::kTagValues;
using cuckoo::StashEntry;

void TimeDecayedCuckoo::AdvanceWatermark(EventTime watermark) {
  const int64_t ms = ToMillis(watermark);
  if (ms <= watermark_ms_) return;
  const int64_t previous_newest = newest_;
  watermark_ms_ = ms;
  UpdateLiveTags();
  // Expired slots already stopped answering (UpdateLiveTags); they must be
  // emptied before the newest generation's tag can name an old generation.
  if (newest_ != previous_newest) Sweep(previous_newest);
}

// Empties every slot whose generation, read against `previous_newest` (the
// newest generation its tag was written under), is older than oldest_. One
// pass over the table, skipped when no expired tag holds entries. Writes no
// page: LoadPage() drops the same entries from a page's stored copy.
void TimeDecayedCuckoo::Sweep(int64_t previous_newest) {
  uint8_t keep = 0;
  bool any_to_clear = false;
  for (uint32_t tag = 0; tag < kTagValues; ++tag) {
    if (GenerationOfTag(tag, previous_newest) >= oldest_) {
      keep |= static_cast<uint8_t>(1u << tag);
    } else if (tag_counts_[tag] > 0) {
      any_to_clear = true;
    }
  }
  const auto kept = [keep](uint32_t v) { return (keep >> (v & (kTagValues - 1))) & 1; };
  std::erase_if(stash_, [&](const StashEntry& e) { return !kept(e.value); });
  if (any_to_clear) {
    ++sweeps_;
    const uint64_t slots = geometry_.slots();
    for (uint64_t s = 0; s < slots; ++s) {
      const uint32_t v = slots_.Get(s);
      if (v != 0 && !kept(v)) slots_.Set(s, 0);
    }
    for (uint32_t tag = 0; tag < kTagValues; ++tag) {
      if (!((keep >> tag) & 1)) tag_counts_[tag] = 0;
    }
  }
  RetryStash();
}

// Expiry may have freed a slot for a stashed entry in either of its buckets.
void TimeDecayedCuckoo::RetryStash() {
  std::erase_if(stash_, [this](const StashEntry& e) {
    return PlaceInFree(e.bucket, e.value) ||
           PlaceInFree(AltBucket(e.bucket, e.value >> kTagBits), e.value);
  });
}

}  // namespace pagesieve::store
