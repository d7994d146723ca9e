// TimeDecayedFuse: the header and pages a checkpoint writes, and reading
// the sealed and open pages back (the key logs are read only by a rebuild).
#include <bit>
#include <cstring>

#include "store/bloom/bloom_format.h"
#include "store/fuse/time_decayed_fuse.h"

namespace pagesieve::store {

using fuse::kLogChunkKeys;
using fuse::kLogSlots;
using fuse::kOpenPageBase;
using fuse::kOpenPageBytes;
using fuse::kSealedPageBytes;

uint32_t TimeDecayedFuse::PendingChunks(const Log& log) {
  return static_cast<uint32_t>((log.pending.size() + kLogChunkKeys - 1) / kLogChunkKeys);
}

uint64_t TimeDecayedFuse::SealedPages() const {
  return (sealed_.data_bytes() + kSealedPageBytes - 1) / kSealedPageBytes;
}

// The header counts the chunks this checkpoint writes: both go into the
// same atomic batch.
std::string TimeDecayedFuse::EncodeHeader() const {
  fuse::FuseHeader h;
  h.options = options_;
  h.geometry = geometry_;
  h.watermark_ms = watermark_ms_;
  h.build = build_;
  h.built_oldest = built_oldest_;
  h.built_newest = built_newest_;
  h.late_in_open = late_in_open_;
  h.sealed = sealed_.shape();
  h.sealed.fingerprint_bits = geometry_.fingerprint_bits;
  for (int s = 0; s < kLogSlots; ++s) {
    h.logs[s] = logs_[s].stored;
    h.logs[s].chunks += PendingChunks(logs_[s]);
  }
  return fuse::EncodeFuseHeader(h);
}

size_t TimeDecayedFuse::DirtyPageCount() const {
  size_t n = (sealed_dirty_ ? SealedPages() : 0) + open_dirty_count_;
  for (const Log& log : logs_) n += PendingChunks(log);
  return n;
}

void TimeDecayedFuse::ForEachLogChunk(
    const std::function<void(uint32_t page_id, std::string_view bytes)>& fn) const {
  std::string page;
  for (int s = 0; s < kLogSlots; ++s) {
    const Log& log = logs_[s];
    for (uint32_t c = 0; c < PendingChunks(log); ++c) {
      const uint32_t id = fuse::LogPageId(s, log.stored.chunks + c);
      const size_t from = size_t{c} * kLogChunkKeys;
      const size_t n = std::min<size_t>(kLogChunkKeys, log.pending.size() - from);
      page.clear();
      bloom::AppendPagePrefix({param_tag_, id, log.stored.generation}, &page);
      page.append(reinterpret_cast<const char*>(log.pending.data() + from), n * sizeof(uint64_t));
      fn(id, page);
    }
  }
}

void TimeDecayedFuse::ForEachDirtyPage(
    const std::function<void(uint32_t page_id, std::string_view bytes)>& fn) const {
  static_assert(std::endian::native == std::endian::little, "pages are little-endian");
  std::string page;
  const auto emit_open = [&](uint64_t block) {
    const auto id = static_cast<uint32_t>(kOpenPageBase + block);
    page.clear();
    bloom::AppendPagePrefix({param_tag_, id, static_cast<int64_t>(build_)}, &page);
    page.append(open_.data() + block * kOpenPageBytes, kOpenPageBytes);
    fn(id, page);
  };
  if (sealed_dirty_) {
    const size_t bytes = sealed_.data_bytes();
    for (uint64_t p = 0; p < SealedPages(); ++p) {
      page.clear();
      bloom::AppendPagePrefix({param_tag_, static_cast<uint32_t>(p), static_cast<int64_t>(build_)},
                              &page);
      const size_t from = p * kSealedPageBytes;
      const size_t n = std::min<size_t>(kSealedPageBytes, bytes - from);
      page.append(sealed_.data() + from, n);
      page.resize(bloom::kPagePrefixBytes + kSealedPageBytes, '\0');
      fn(static_cast<uint32_t>(p), page);
    }
  }
  for (size_t w = 0; w < open_dirty_.size(); ++w) {
    for (uint64_t bits = open_dirty_[w]; bits != 0; bits &= bits - 1) {
      emit_open(w * 64 + static_cast<uint64_t>(std::countr_zero(bits)));
    }
  }
  ForEachLogChunk(fn);
}

void TimeDecayedFuse::ClearDirty() {
  std::fill(open_dirty_.begin(), open_dirty_.end(), 0);
  open_dirty_count_ = 0;
  sealed_dirty_ = false;
  for (Log& log : logs_) {
    log.stored.chunks += PendingChunks(log);
    // Written: the keys now live in the store, not in memory.
    std::vector<uint64_t>().swap(log.pending);
  }
}

// Pages stamped with another build are stale (a rebuild rewrites every
// page at the next checkpoint, in the same batch as its header).
Status TimeDecayedFuse::LoadPage(uint32_t page_id, std::string_view bytes) {
  if (page_id >= fuse::kLogPageBase) return Status::Ok();  // read by a rebuild
  const bool open = page_id >= kOpenPageBase;
  PS_ASSIGN_OR_RETURN(bloom::PagePrefix prefix,
                      bloom::DecodePagePrefix(bytes, open ? kOpenPageBytes : kSealedPageBytes));
  if (prefix.tag != param_tag_) return Status::Corruption("fuse page of another filter");
  if (prefix.page_id != page_id) {
    return Status::Corruption("fuse page id " + std::to_string(prefix.page_id) + " stored as " +
                              std::to_string(page_id));
  }
  if (prefix.generation != static_cast<int64_t>(build_)) return Status::Ok();  // stale
  const char* bits = bytes.data() + bloom::kPagePrefixBytes;
  if (open) {
    const uint64_t block = page_id - kOpenPageBase;
    if (block >= geometry_.open_blocks) return Status::Corruption("fuse open page out of range");
    uint64_t* dst = reinterpret_cast<uint64_t*>(open_.data()) + block * 8;
    uint64_t src[8];
    std::memcpy(src, bits, sizeof(src));
    for (int i = 0; i < 8; ++i) {
      open_bits_set_ -= static_cast<uint64_t>(std::popcount(dst[i]));
      open_bits_set_ += static_cast<uint64_t>(std::popcount(src[i]));
      dst[i] = src[i];
    }
    return Status::Ok();
  }
  if (page_id >= SealedPages()) return Status::Corruption("fuse sealed page out of range");
  const size_t from = size_t{page_id} * kSealedPageBytes;
  std::memcpy(sealed_.mutable_data() + from, bits,
              std::min<size_t>(kSealedPageBytes, sealed_.data_bytes() - from));
  return Status::Ok();
}

}  // namespace pagesieve::store
