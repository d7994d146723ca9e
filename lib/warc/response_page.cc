#include "warc/response_page.h"

#include "fingerprint/digests.h"
#include "warc/header_fields.h"
#include "warc/http_response.h"
#include "warc/payload_decoding.h"

namespace pagesieve::warc {
namespace {

std::string_view WithoutAngles(std::string_view uri) {
  if (uri.size() >= 2 && uri.front() == '<' && uri.back() == '>') return uri.substr(1, uri.size() - 2);
  return uri;
}

// The body a page is compared by: the stored payload with the transfer and
// content encodings undone where they can be.
std::string DecodedBody(const HttpResponse& http, size_t max_decoded_bytes) {
  std::string_view payload = http.payload;
  StatusOr<std::string> dechunked = Status::InvalidArgument("not chunked");
  if (http.transfer_encoding.find("chunked") != std::string::npos) {
    dechunked = Dechunk(payload);
    if (dechunked.ok()) payload = *dechunked;
  }
  if (http.content_encoding.empty() || http.content_encoding == "identity") {
    return std::string(payload);
  }
  StatusOr<std::string> decoded = DecodeContent(http.content_encoding, payload, max_decoded_bytes);
  return decoded.ok() ? std::move(decoded).value() : std::string(payload);
}

}  // namespace

StatusOr<ResponsePage> ReadResponsePage(std::string_view record, size_t max_decoded_bytes) {
  std::optional<HeaderSplit> split = SplitHeader(record);
  if (!split) return Status::InvalidArgument("the WARC header has no end");
  PS_ASSIGN_OR_RETURN(const HeaderFields fields, HeaderFields::Parse(split->fields));
  ResponsePage page;
  const std::string_view uri = WithoutAngles(fields.Get("WARC-Target-URI").value_or(""));
  if (uri.empty()) return Status::InvalidArgument("a response record without WARC-Target-URI");
  page.target_uri = std::string(uri);
  page.record_id = std::string(fields.Get("WARC-Record-ID").value_or(""));
  page.date = std::string(fields.Get("WARC-Date").value_or(""));
  if (page.date.empty()) return Status::InvalidArgument("a response record without WARC-Date");

  const std::string_view block = record.substr(split->body_start);
  PS_ASSIGN_OR_RETURN(const HttpResponse http, ParseHttpResponse(block));
  page.status = http.status;
  page.content_type = http.content_type;
  page.payload_digest = fingerprint::PayloadDigest(http.payload);
  page.body = DecodedBody(http, max_decoded_bytes);
  return page;
}

}  // namespace pagesieve::warc
