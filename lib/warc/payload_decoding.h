#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status_or.h"

namespace pagesieve::warc {

// Undoes chunked transfer encoding: the chunks' data joined. InvalidArgument
// when `payload` is not chunked (a size line that is not hex, a chunk longer
// than what is left); some archivers store the payload de-chunked but keep
// the header, so callers fall back to the bytes as they are.
StatusOr<std::string> Dechunk(std::string_view payload);

// Decodes a Content-Encoding: gzip (x-gzip), deflate (zlib-wrapped or raw),
// br; "identity" and "" give the bytes back. At most `max_bytes` are
// produced (a small compressed body can expand without bound): the rest is
// cut, which the fingerprinter reports as truncated. InvalidArgument for an
// unknown encoding or data that does not decode.
StatusOr<std::string> DecodeContent(std::string_view encoding, std::string_view payload,
                                    size_t max_bytes);

}  // namespace pagesieve::warc
