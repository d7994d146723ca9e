#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct libdeflate_decompressor;

namespace pagesieve::warc {

// Decodes one gzip member in a single call with libdeflate, which inflates
// and checks the CRC several times faster than zlib's streaming inflate:
// in a .warc.gz, where each record is a member of a few hundred KB at most,
// that is most of what reading the file costs. It only ever says "decoded"
// or "not here": a member it cannot decode whole (cut off by the end of the
// bytes given, corrupt, lying about its length, or larger than the limit)
// is left to the streaming decoder, which knows how to report damage.
//
// Not thread-safe.
class WholeMemberDecoder {
 public:
  // Members that decode to more than `max_bytes` are not decoded here.
  explicit WholeMemberDecoder(size_t max_bytes);
  ~WholeMemberDecoder();

  enum class Result {
    kDecoded,   // output() holds the member, *consumed its compressed length
    kNotWhole,  // cut off by the end of `in`, or damaged: more bytes may help
    kTooLarge,  // decodes to more than max_bytes, or the library is missing
  };

  // Decodes the gzip member that `in` starts with; `in` may go on past it.
  Result Decode(std::string_view in, size_t* consumed);

  // The last member decoded; valid until the next Decode().
  std::string_view output() const { return {out_.get(), size_}; }

 private:
  struct Free {
    void operator()(libdeflate_decompressor* d) const;
  };
  std::unique_ptr<libdeflate_decompressor, Free> decompressor_;
  const size_t max_bytes_;
  // Grown when a member does not fit and then kept, so a file of similar
  // records allocates once; not zero-filled, since every byte is written
  // before it is read.
  std::unique_ptr<char[]> out_;
  size_t capacity_ = 0;
  size_t size_ = 0;
};

// A gzip-encoded HTTP body that is one member decoding to at most
// `max_bytes`, decoded in one call into a string of the size its ISIZE
// trailer gives. nullopt when the body is anything else (several members,
// cut off, corrupt, a trailer that lies, larger than `max_bytes`): the
// streaming decoder then does what it always did with it.
std::optional<std::string> GunzipWhole(std::string_view in, size_t max_bytes);

}  // namespace pagesieve::warc
