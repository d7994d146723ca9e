#include "warc_writer.h"

#include <brotli/encode.h>
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace pagesieve::testing {
namespace {

std::string Deflate(std::string_view bytes, int window_bits) {
  z_stream z;
  std::memset(&z, 0, sizeof(z));
  if (deflateInit2(&z, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2");
  }
  std::string out(deflateBound(&z, bytes.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate");
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

std::string HttpResponseBlock(int status,
                              const std::vector<std::pair<std::string, std::string>>& headers,
                              std::string_view payload) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " X\r\n";
  for (const auto& [k, v] : headers) out += k + ": " + v + "\r\n";
  out += "\r\n";
  out += payload;
  return out;
}

std::string WarcRecordBytes(const WarcRecordSpec& spec) {
  std::string out = "WARC/1.1\r\nWARC-Type: " + spec.type + "\r\n";
  if (!spec.target_uri.empty()) out += "WARC-Target-URI: " + spec.target_uri + "\r\n";
  out += "WARC-Date: " + spec.date + "\r\n";
  out += "WARC-Record-ID: " + spec.record_id + "\r\n";
  out += "Content-Type: " + spec.content_type + "\r\n";
  for (const auto& [k, v] : spec.extra_fields) out += k + ": " + v + "\r\n";
  const long long length =
      spec.content_length >= 0 ? spec.content_length : static_cast<long long>(spec.block.size());
  out += "Content-Length: " + std::to_string(length) + "\r\n\r\n";
  out += spec.block;
  out += "\r\n\r\n";
  return out;
}

std::string GzipMember(std::string_view bytes) { return Deflate(bytes, 16 + MAX_WBITS); }
std::string ZlibCompress(std::string_view bytes) { return Deflate(bytes, MAX_WBITS); }

std::string BrotliCompress(std::string_view bytes) {
  size_t size = BrotliEncoderMaxCompressedSize(bytes.size());
  std::string out(size, '\0');
  if (!BrotliEncoderCompress(5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, bytes.size(),
                             reinterpret_cast<const uint8_t*>(bytes.data()), &size,
                             reinterpret_cast<uint8_t*>(out.data()))) {
    throw std::runtime_error("BrotliEncoderCompress");
  }
  out.resize(size);
  return out;
}

std::string Chunked(std::string_view bytes, size_t chunk) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += chunk) {
    const std::string_view part = bytes.substr(i, chunk);
    char size[32];
    std::snprintf(size, sizeof(size), "%zx\r\n", part.size());
    out += size;
    out += part;
    out += "\r\n";
  }
  out += "0\r\n\r\n";
  return out;
}

std::string HtmlPage(int seed, int words) {
  static const char* const kWords[] = {"river", "stone", "market", "winter", "harbour", "signal",
                                       "garden", "ledger", "copper", "lantern", "meadow", "engine"};
  std::string text;
  unsigned x = static_cast<unsigned>(seed) * 2654435761u + 1;
  for (int i = 0; i < words; ++i) {
    x = x * 1664525u + 1013904223u;
    text += kWords[(x >> 16) % 12];
    text += (i % 12 == 11) ? ". " : " ";
  }
  return "<html><head><title>Page " + std::to_string(seed) +
         "</title></head><body><article><h1>Story " + std::to_string(seed) + "</h1><p>" + text +
         "</p></article></body></html>";
}

}  // namespace pagesieve::testing
