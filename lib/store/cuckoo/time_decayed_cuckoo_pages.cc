// TimeDecayedCuckoo: the header and pages a checkpoint writes, and reading
// them back.
#include <cstring>

#include "store/bloom/bloom_format.h"
#include "store/cuckoo/time_decayed_cuckoo.h"

namespace pagesieve::store {

using cuckoo::kSlotsPerBucket;
using cuckoo::kTagBits;
using cuckoo::kTagValues;

std::string TimeDecayedCuckoo::EncodeHeader() const {
  return cuckoo::EncodeCuckooHeader({options_, geometry_, watermark_ms_, stash_});
}

// Each page is stamped with the newest generation: its tags are read
// against it when it is loaded, however much later that is.
void TimeDecayedCuckoo::ForEachDirtyPage(
    const std::function<void(uint32_t page_id, std::string_view bytes)>& fn) const {
  const size_t page_bytes = geometry_.page_bytes();
  std::string page;
  for (size_t w = 0; w < dirty_.size(); ++w) {
    for (uint64_t bits = dirty_[w]; bits != 0; bits &= bits - 1) {
      const auto id = static_cast<uint32_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits)));
      page.clear();
      bloom::AppendPagePrefix({param_tag_, id, newest_}, &page);
      page.append(bytes_.data() + size_t{id} * page_bytes, page_bytes);
      fn(id, page);
    }
  }
}

Status TimeDecayedCuckoo::LoadPage(uint32_t page_id, std::string_view bytes) {
  const size_t page_bytes = geometry_.page_bytes();
  PS_ASSIGN_OR_RETURN(bloom::PagePrefix prefix, bloom::DecodePagePrefix(bytes, page_bytes));
  if (prefix.tag != param_tag_) return Status::Corruption("cuckoo page of another filter");
  if (prefix.page_id != page_id || page_id >= geometry_.pages()) {
    return Status::Corruption("cuckoo page id " + std::to_string(prefix.page_id) + " stored as " +
                              std::to_string(page_id));
  }
  if (prefix.generation > newest_) {
    return Status::Corruption("cuckoo page newer than its header");
  }
  const uint64_t first = uint64_t{page_id} * geometry_.buckets_per_page * kSlotsPerBucket;
  const uint64_t end = first + uint64_t{geometry_.buckets_per_page} * kSlotsPerBucket;
  for (uint64_t s = first; s < end; ++s) WriteSlot(s, 0);  // a page loaded twice counts once
  std::memcpy(bytes_.data() + size_t{page_id} * page_bytes, bytes.data() + bloom::kPagePrefixBytes,
              page_bytes);
  for (uint64_t s = first; s < end; ++s) {
    const uint32_t v = slots_.Get(s);
    if (v == 0) continue;
    if ((v >> kTagBits) == 0) return Status::Corruption("cuckoo page: a tag without fingerprint");
    if (GenerationOfTag(v & (kTagValues - 1), prefix.generation) < oldest_) {
      slots_.Set(s, 0);  // expired since the page was written
    } else {
      ++tag_counts_[v & (kTagValues - 1)];
    }
  }
  const uint64_t bit = uint64_t{1} << (page_id & 63);
  if (dirty_[page_id >> 6] & bit) {  // WriteSlot above marked it; loading is not a change
    dirty_[page_id >> 6] &= ~bit;
    --dirty_count_;
  }
  return Status::Ok();
}

}  // namespace pagesieve::store
