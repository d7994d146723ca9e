#include <brotli/decode.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "warc/header_fields.h"
#include "warc/payload_decoding.h"
#include "warc/whole_member.h"

namespace pagesieve::warc {
namespace {

constexpr size_t kStep = 64 << 10;

// Inflates with zlib's `window_bits` (16+: gzip, 15: zlib, -15: raw deflate).
// A gzip body may hold several members; all are decoded.
StatusOr<std::string> Inflate(std::string_view in, int window_bits, size_t max_bytes) {
  z_stream z;
  std::memset(&z, 0, sizeof(z));
  if (inflateInit2(&z, window_bits) != Z_OK) return Status::Internal("zlib could not be initialised");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, inflateEnd);
  std::string out;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  while (out.size() < max_bytes) {
    const size_t old = out.size();
    const size_t room = std::min(kStep, max_bytes - old);
    out.resize(old + room);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + old);
    z.avail_out = static_cast<uInt>(room);
    const int ret = inflate(&z, Z_NO_FLUSH);
    out.resize(old + room - z.avail_out);
    if (ret == Z_STREAM_END) {
      if (z.avail_in == 0 || window_bits < 16) break;
      inflateReset(&z);  // another gzip member
      continue;
    }
    if (ret == Z_BUF_ERROR && z.avail_in == 0) break;  // cut short: keep what decoded
    if (ret != Z_OK && ret != Z_BUF_ERROR) {
      return Status::InvalidArgument(std::string("the body does not decode: ") +
                                     (z.msg ? z.msg : "zlib error"));
    }
  }
  return out;
}

StatusOr<std::string> Unbrotli(std::string_view in, size_t max_bytes) {
  std::unique_ptr<BrotliDecoderState, void (*)(BrotliDecoderState*)> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), BrotliDecoderDestroyInstance);
  if (!state) return Status::Internal("brotli could not be initialised");
  std::string out;
  size_t avail_in = in.size();
  const uint8_t* next_in = reinterpret_cast<const uint8_t*>(in.data());
  while (out.size() < max_bytes) {
    const size_t old = out.size();
    const size_t room = std::min(kStep, max_bytes - old);
    out.resize(old + room);
    size_t avail_out = room;
    uint8_t* next_out = reinterpret_cast<uint8_t*>(out.data() + old);
    const BrotliDecoderResult r = BrotliDecoderDecompressStream(
        state.get(), &avail_in, &next_in, &avail_out, &next_out, nullptr);
    out.resize(old + room - avail_out);
    if (r == BROTLI_DECODER_RESULT_SUCCESS || r == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT) break;
    if (r == BROTLI_DECODER_RESULT_ERROR) {
      return Status::InvalidArgument(
          std::string("the body does not decode: ") +
          BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state.get())));
    }
  }
  return out;
}

StatusOr<std::string> DecodeOne(std::string_view encoding, std::string_view in, size_t max_bytes) {
  if (encoding.empty() || encoding == "identity") {
    return std::string(in);  // nothing expands: the fingerprinter bounds its own work
  }
  if (encoding == "gzip" || encoding == "x-gzip") {
    if (std::optional<std::string> whole = GunzipWhole(in, max_bytes)) return std::move(*whole);
    return Inflate(in, 16 + MAX_WBITS, max_bytes);
  }
  if (encoding == "br") return Unbrotli(in, max_bytes);
  if (encoding == "deflate") {
    // RFC 9110 means zlib-wrapped; some servers send it raw.
    StatusOr<std::string> wrapped = Inflate(in, MAX_WBITS, max_bytes);
    return wrapped.ok() ? wrapped : Inflate(in, -MAX_WBITS, max_bytes);
  }
  return Status::InvalidArgument("unknown content encoding '" + std::string(encoding) + "'");
}

}  // namespace

StatusOr<std::string> DecodeContent(std::string_view encoding, std::string_view payload,
                                    size_t max_bytes) {
  // "gzip, br": applied in that order, so undone from the last.
  std::string body(payload);
  while (!encoding.empty()) {
    const size_t comma = encoding.rfind(',');
    const std::string_view last =
        TrimBlanks(comma == std::string_view::npos ? encoding : encoding.substr(comma + 1));
    encoding = comma == std::string_view::npos ? std::string_view() : encoding.substr(0, comma);
    PS_ASSIGN_OR_RETURN(body, DecodeOne(last, body, max_bytes));
  }
  return body;
}

}  // namespace pagesieve::warc
