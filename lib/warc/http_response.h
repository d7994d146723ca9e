#pragma once

#include <string>
#include <string_view>

#include "common/status_or.h"

namespace pagesieve::warc {

// The parts of an HTTP/1.x response (the block of a WARC response record)
// that deduplication needs.
struct HttpResponse {
  int status = 0;
  std::string content_type;
  std::string transfer_encoding;  // lower case; empty when none
  std::string content_encoding;   // lower case; empty when none
  // The payload as stored: everything after the header's empty line.
  std::string_view payload;
};

// Parses `block`. InvalidArgument when it is not an HTTP response: no
// "HTTP/" status line, no status code, no end to the header.
StatusOr<HttpResponse> ParseHttpResponse(std::string_view block);

}  // namespace pagesieve::warc
