// TimeDecayedBloom's persisted form: the header and the dirty pages.

#include <algorithm>
#include <cstring>
#include <string>

#include "store/bloom/bloom_format.h"
#include "store/bloom/generations.h"
#include "store/bloom/time_decayed_bloom.h"

namespace pagesieve::store {
namespace {

uint64_t CountPageBits(const char* data, size_t bytes) {
  uint64_t n = 0;
  for (size_t i = 0; i < bytes; i += sizeof(uint64_t)) {
    uint64_t word;
    std::memcpy(&word, data + i, sizeof(word));
    n += __builtin_popcountll(word);
  }
  return n;
}

Status BadPage(uint32_t page_id, std::string_view what) {
  return Status::Corruption("bloom page " + std::to_string(page_id) + ": " + std::string(what));
}

}  // namespace

std::string TimeDecayedBloom::EncodeHeader() const {
  bloom::BloomHeader h{options_, geometry_, watermark_ms_, {}};
  h.slots.reserve(slots_.size());
  for (const Slot& s : slots_) h.slots.push_back({s.generation, s.inserts});
  return bloom::EncodeBloomHeader(h);
}

void TimeDecayedBloom::ForEachDirtyPage(
    const std::function<void(uint32_t page_id, std::string_view bytes)>& fn) const {
  if (dirty_count_ == 0) return;
  std::string page;
  page.reserve(bloom::kPagePrefixBytes + geometry_.page_bytes);
  for (size_t w = 0; w < dirty_.size(); ++w) {
    for (uint64_t bits = dirty_[w]; bits != 0; bits &= bits - 1) {
      const auto id = static_cast<uint32_t>(w * 64 + __builtin_ctzll(bits));
      page.clear();
      bloom::AppendPagePrefix({tag_, id, slots_[id % geometry_.slots].generation}, &page);
      page.append(PageData(id), geometry_.page_bytes);
      fn(id, page);
    }
  }
}

void TimeDecayedBloom::ClearDirty() {
  std::fill(dirty_.begin(), dirty_.end(), 0);
  dirty_count_ = 0;
}

Status TimeDecayedBloom::LoadPage(uint32_t page_id, std::string_view bytes) {
  if (page_id >= geometry_.page_count()) {
    return BadPage(page_id, "id beyond the " + std::to_string(geometry_.page_count()) + " pages");
  }
  PS_ASSIGN_OR_RETURN(bloom::PagePrefix prefix,
                      bloom::DecodePagePrefix(bytes, geometry_.page_bytes));
  if (prefix.tag != tag_) return BadPage(page_id, "belongs to a filter with other parameters");
  if (prefix.page_id != page_id) {
    return BadPage(page_id, "holds page " + std::to_string(prefix.page_id));
  }
  Slot& slot = slots_[page_id % geometry_.slots];
  if (prefix.generation != slot.generation) return CheckPageGeneration(page_id, prefix.generation);
  char* dst = PageData(page_id);
  slot.set_bits -= CountPageBits(dst, geometry_.page_bytes);
  std::memcpy(dst, bytes.data() + bloom::kPagePrefixBytes, geometry_.page_bytes);
  slot.set_bits += CountPageBits(dst, geometry_.page_bytes);
  return Status::Ok();
}

// A page whose generation its slot no longer holds is stale when that
// generation is older than the slot's (or expired, for an empty slot): its
// slot was cleared after the page was written, and the page was not written
// again since. Anything newer cannot come from this filter's checkpoints.
Status TimeDecayedBloom::CheckPageGeneration(uint32_t page_id, int64_t generation) const {
  const int slot = static_cast<int>(page_id % geometry_.slots);
  const int64_t held = slots_[slot].generation;
  const bool stale =
      generation != bloom::kNoGeneration && bloom::SlotOf(generation, geometry_.slots) == slot &&
      (held == bloom::kNoGeneration ? generation < OldestLiveGeneration() : generation < held);
  if (stale) return Status::Ok();
  return BadPage(page_id, "generation " + std::to_string(generation) +
                              " is not one its slot held before the header's");
}

}  // namespace pagesieve::store
