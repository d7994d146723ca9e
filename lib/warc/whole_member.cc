#include "warc/whole_member.h"

#include <libdeflate.h>

#include <algorithm>

namespace pagesieve::warc {
namespace {

// Most pages decode to less; a larger member grows the buffer once.
constexpr size_t kFirstCapacity = size_t{1} << 20;

}  // namespace

void WholeMemberDecoder::Free::operator()(libdeflate_decompressor* d) const {
  libdeflate_free_decompressor(d);
}

WholeMemberDecoder::WholeMemberDecoder(size_t max_bytes)
    : decompressor_(libdeflate_alloc_decompressor()), max_bytes_(max_bytes) {}

WholeMemberDecoder::~WholeMemberDecoder() = default;

WholeMemberDecoder::Result WholeMemberDecoder::Decode(std::string_view in, size_t* consumed) {
  if (!decompressor_) return Result::kTooLarge;
  for (;;) {
    if (capacity_ == 0) {
      capacity_ = std::min(kFirstCapacity, max_bytes_);
      out_ = std::make_unique_for_overwrite<char[]>(capacity_);
    }
    size_t made = 0;
    const libdeflate_result r = libdeflate_gzip_decompress_ex(
        decompressor_.get(), in.data(), in.size(), out_.get(), capacity_, consumed, &made);
    if (r == LIBDEFLATE_SUCCESS) {
      size_ = made;
      return Result::kDecoded;
    }
    size_ = 0;
    if (r != LIBDEFLATE_INSUFFICIENT_SPACE) return Result::kNotWhole;
    if (capacity_ >= max_bytes_) return Result::kTooLarge;
    // The whole member is decoded again: rare, as the buffer is kept.
    capacity_ = std::min(capacity_ * 2, max_bytes_);
    out_ = std::make_unique_for_overwrite<char[]>(capacity_);
  }
}

}  // namespace pagesieve::warc
