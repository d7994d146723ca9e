#include "warc/sniff.h"

#include <zlib.h>

#include <cstring>

namespace pagesieve::warc {

bool IsGzip(std::string_view head) { return head.starts_with("\x1f\x8b"); }

WarcSniff SniffWarc(std::string_view head) {
  constexpr std::string_view kPrefix = "WARC/";
  if (head.starts_with(kPrefix)) return WarcSniff::kWarc;
  if (!IsGzip(head)) return WarcSniff::kNotWarc;
  z_stream z;
  std::memset(&z, 0, sizeof(z));
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return WarcSniff::kNotWarc;
  char out[16];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(head.data()));
  z.avail_in = static_cast<uInt>(head.size());
  z.next_out = reinterpret_cast<Bytef*>(out);
  z.avail_out = sizeof(out);
  inflate(&z, Z_SYNC_FLUSH);
  const size_t made = sizeof(out) - z.avail_out;
  inflateEnd(&z);
  return std::string_view(out, made).starts_with(kPrefix) ? WarcSniff::kGzipWarc
                                                          : WarcSniff::kNotWarc;
}

}  // namespace pagesieve::warc
