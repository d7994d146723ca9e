#pragma once

#include <bit>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>

namespace pagesieve::store {

// Fixed-width little-endian fields, the encoding of the URL filters' pages
// and headers (bloom, cuckoo, fuse). The stored values' big-endian layouts
// are codec.h's.
template <typename T>
void PutFixedField(std::string* out, T value) {
  static_assert(std::endian::native == std::endian::little, "the format is little-endian");
  char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  out->append(raw, sizeof(T));
}

// Reads fixed-width fields from the front of a view; reading past its end
// yields zeros and leaves ok() false.
class FixedFieldReader {
 public:
  explicit FixedFieldReader(std::string_view in) : in_(in) {}
  template <typename T>
  T Get() {
    T value{};
    if (in_.size() < sizeof(T)) {
      ok_ = false;
      return value;
    }
    std::memcpy(&value, in_.data(), sizeof(T));
    in_.remove_prefix(sizeof(T));
    return value;
  }
  bool ok() const { return ok_; }
  size_t remaining() const { return in_.size(); }

 private:
  std::string_view in_;
  bool ok_ = true;
};

}  // namespace pagesieve::store
