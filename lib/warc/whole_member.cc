#include "warc/whole_member.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstdint>

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

std::optional<std::string> GunzipWhole(std::string_view in, size_t max_bytes) {
  constexpr size_t kSmallestMember = 18;  // 10 header bytes, an empty block, 8 trailer bytes
  if (in.size() < kSmallestMember) return std::nullopt;
  const auto* tail = reinterpret_cast<const unsigned char*>(in.data() + in.size() - 4);
  const size_t isize = tail[0] | tail[1] << 8 | tail[2] << 16 | uint32_t{tail[3]} << 24;
  if (isize > max_bytes) return std::nullopt;
  // One decompressor a thread: pages are decoded on the engine's workers,
  // and allocating one per body would cost more than a small body's inflate.
  thread_local std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)>
      decompressor(libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
  if (!decompressor) return std::nullopt;
  std::string out(isize, '\0');
  size_t used = 0;
  size_t made = 0;
  const libdeflate_result r = libdeflate_gzip_decompress_ex(
      decompressor.get(), in.data(), in.size(), out.data(), out.size(), &used, &made);
  // libdeflate checks the CRC and that ISIZE is what it decoded; a body
  // that goes on past the member is another member, or junk, left to zlib.
  if (r != LIBDEFLATE_SUCCESS || used != in.size() || made != isize) return std::nullopt;
  return out;
}

}  // namespace pagesieve::warc
