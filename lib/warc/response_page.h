#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status_or.h"

namespace pagesieve::warc {

// A fetched page read from a WARC response record.
struct ResponsePage {
  std::string target_uri;  // WARC-Target-URI, without the <> WARC/1.0 writers put around it
  std::string record_id;   // WARC-Record-ID as written: "<urn:uuid:...>"
  std::string date;        // WARC-Date as written
  int status = 0;
  std::string content_type;  // the HTTP Content-Type
  // The page as the server meant it: chunked transfer encoding undone,
  // gzip, deflate and br content encodings decoded (at most
  // `max_decoded_bytes` of a decoded body).
  std::string body;
  // "sha1:" + base32 of SHA-1 over the payload as stored: after the HTTP
  // header, compressed encodings still compressed and chunk framing as the
  // writer kept it. What WARC writers put in WARC-Payload-Digest.
  std::string payload_digest;
};

// Reads a response record (`record`: its WARC header and block as stored).
// InvalidArgument, with the reason for the dead letter, when it has no
// WARC-Target-URI or WARC-Date, or its block is not an HTTP response. A body
// whose chunking or content encoding does not decode is taken as stored:
// archivers that de-chunk or decode before writing often keep the header.
StatusOr<ResponsePage> ReadResponsePage(std::string_view record, size_t max_decoded_bytes);

}  // namespace pagesieve::warc
