#include <charconv>

#include "warc/payload_decoding.h"

namespace pagesieve::warc {

StatusOr<std::string> Dechunk(std::string_view payload) {
  std::string out;
  out.reserve(payload.size());
  size_t pos = 0;
  for (;;) {
    const size_t eol = payload.find('\n', pos);
    if (eol == std::string_view::npos) return Status::InvalidArgument("a chunk size line has no end");
    std::string_view line = payload.substr(pos, eol - pos);
    // Chunk extensions (";name=value") and blanks after the size are allowed.
    line = line.substr(0, line.find_first_of("; \t\r"));
    uint64_t size = 0;
    auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), size, 16);
    if (line.empty() || ec != std::errc() || end != line.data() + line.size()) {
      return Status::InvalidArgument("a chunk size is not hexadecimal");
    }
    pos = eol + 1;
    if (size == 0) return out;  // trailers after the last chunk are not payload
    if (size > payload.size() - pos) return Status::InvalidArgument("a chunk runs past the payload");
    out.append(payload.substr(pos, size));
    pos += size;
    if (payload.substr(pos, 2) == "\r\n") {
      pos += 2;
    } else if (payload.substr(pos, 1) == "\n") {
      pos += 1;
    } else {
      return Status::InvalidArgument("a chunk does not end with a line break");
    }
  }
}

}  // namespace pagesieve::warc
