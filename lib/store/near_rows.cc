#include "store/near_rows.h"

#include "store/codec.h"

namespace pagesieve::store {
namespace {

// A bitmap's trailing zero bits are not stored: equal sets encode alike.
void PutBits(std::string* out, const std::vector<bool>& bits) {
  size_t count = bits.size();
  while (count > 0 && !bits[count - 1]) --count;
  PutVarint64(out, count);
  for (size_t byte = 0; byte < (count + 7) / 8; ++byte) {
    unsigned char b = 0;
    for (size_t i = 0; i < 8 && byte * 8 + i < count; ++i) {
      if (bits[byte * 8 + i]) b |= static_cast<unsigned char>(1u << i);
    }
    out->push_back(static_cast<char>(b));
  }
}

// At most this many tables or bands (NearLayout::kMaxTables is 255; the
// bands are fewer than a sketch's slots).
constexpr uint64_t kMaxBits = 1 << 16;

bool GetBits(std::string_view* in, std::vector<bool>* bits) {
  uint64_t count = 0;
  if (!GetVarint64(in, &count) || count > kMaxBits) return false;
  const size_t bytes = (count + 7) / 8;
  if (in->size() < bytes) return false;
  bits->assign(count, false);
  for (size_t i = 0; i < count; ++i) {
    (*bits)[i] = (static_cast<unsigned char>((*in)[i / 8]) >> (i % 8) & 1) != 0;
  }
  // The last stored bit is set (PutBits trims), and no bit past `count` is.
  if (count > 0 && !(*bits)[count - 1]) return false;
  if (count % 8 != 0 && (static_cast<unsigned char>((*in)[bytes - 1]) >> (count % 8)) != 0) {
    return false;
  }
  in->remove_prefix(bytes);
  return true;
}

}  // namespace

bool NearRows::AnyBand(int bands) const {
  if (all_) return bands > 0;
  for (int b = 0; b < bands && static_cast<size_t>(b) < bands_.size(); ++b) {
    if (bands_[static_cast<size_t>(b)]) return true;
  }
  return false;
}

void NearRows::EncodeTo(std::string* out) const {
  PutBits(out, tables_);
  PutBits(out, bands_);
}

bool NearRows::DecodeFrom(std::string_view* in, NearRows* rows) {
  NearRows decoded = Some();
  if (!GetBits(in, &decoded.tables_) || !GetBits(in, &decoded.bands_)) return false;
  *rows = std::move(decoded);
  return true;
}

}  // namespace pagesieve::store
