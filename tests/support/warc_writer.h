#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pagesieve::testing {

// A test-side WARC writer: records with exactly the bytes a test wants,
// including the broken ones a real writer would never make.

// "HTTP/1.1 <status> X" + headers + CRLF + payload (as given: encode it first).
std::string HttpResponseBlock(int status, const std::vector<std::pair<std::string, std::string>>& headers,
                              std::string_view payload);

struct WarcRecordSpec {
  std::string type = "response";
  std::string target_uri = "https://example.com/";  // empty: no WARC-Target-URI field
  std::string record_id = "<urn:uuid:00000000-0000-0000-0000-000000000001>";
  std::string date = "2024-05-01T12:00:00Z";
  std::string content_type = "application/http;msgtype=response";
  std::string block;
  // The Content-Length written; -1: the block's true length.
  long long content_length = -1;
  std::vector<std::pair<std::string, std::string>> extra_fields;
};

// One record: "WARC/1.1", fields, CRLF, block, CRLF CRLF.
std::string WarcRecordBytes(const WarcRecordSpec& spec);

// `bytes` as one gzip member.
std::string GzipMember(std::string_view bytes);
// `bytes` zlib-wrapped (Content-Encoding: deflate) and brotli-compressed.
std::string ZlibCompress(std::string_view bytes);
std::string BrotliCompress(std::string_view bytes);
// `bytes` in chunked transfer encoding, in chunks of `chunk` bytes.
std::string Chunked(std::string_view bytes, size_t chunk);

// A page of HTML with `words` words of text that differ by `seed`.
std::string HtmlPage(int seed, int words = 300);

}  // namespace pagesieve::testing
