#pragma once

#include <string_view>

namespace pagesieve::warc {

enum class WarcSniff { kNotWarc, kWarc, kGzipWarc };

// What the first bytes of a file (a few KB) say: a WARC file starts with
// "WARC/"; a .warc.gz is a gzip member that inflates to that.
WarcSniff SniffWarc(std::string_view head);

bool IsGzip(std::string_view head);

}  // namespace pagesieve::warc
