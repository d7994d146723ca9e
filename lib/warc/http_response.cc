#include "warc/http_response.h"

#include <algorithm>
#include <charconv>

#include "warc/header_fields.h"

namespace pagesieve::warc {
namespace {

std::string Lowered(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; });
  return out;
}

// "HTTP/1.1 200 OK" → 200.
StatusOr<int> StatusCode(std::string_view line) {
  const size_t space = line.find(' ');
  if (space == std::string_view::npos) return Status::InvalidArgument("no HTTP status code");
  std::string_view code = TrimBlanks(line.substr(space + 1)).substr(0, 3);
  int status = 0;
  auto [end, ec] = std::from_chars(code.data(), code.data() + code.size(), status);
  if (ec != std::errc() || end != code.data() + code.size() || code.size() != 3) {
    return Status::InvalidArgument("no HTTP status code in '" + std::string(line.substr(0, 60)) +
                                   "'");
  }
  return status;
}

}  // namespace

StatusOr<HttpResponse> ParseHttpResponse(std::string_view block) {
  if (!block.starts_with("HTTP/")) {
    return Status::InvalidArgument("not an HTTP response: the payload starts with '" +
                                   std::string(block.substr(0, std::min<size_t>(block.find('\n'), 40))) +
                                   "'");
  }
  std::optional<HeaderSplit> split = SplitHeader(block);
  if (!split) return Status::InvalidArgument("the HTTP header has no end");
  PS_ASSIGN_OR_RETURN(const HeaderFields fields, HeaderFields::Parse(split->fields));
  HttpResponse out;
  PS_ASSIGN_OR_RETURN(out.status, StatusCode(split->first_line));
  out.content_type = std::string(fields.Get("Content-Type").value_or(""));
  out.transfer_encoding = Lowered(fields.Get("Transfer-Encoding").value_or(""));
  out.content_encoding = Lowered(fields.Get("Content-Encoding").value_or(""));
  out.payload = block.substr(split->body_start);
  return out;
}

}  // namespace pagesieve::warc
