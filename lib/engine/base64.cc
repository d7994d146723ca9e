#include "engine/base64.h"

#include <openssl/evp.h>

#include <memory>

namespace pagesieve::engine {
namespace {

struct EncodeCtxDeleter {
  void operator()(EVP_ENCODE_CTX* ctx) const { EVP_ENCODE_CTX_free(ctx); }
};

}  // namespace

StatusOr<std::string> DecodeBase64(std::string_view text) {
  std::unique_ptr<EVP_ENCODE_CTX, EncodeCtxDeleter> ctx(EVP_ENCODE_CTX_new());
  if (!ctx) return Status::ResourceExhausted("out of memory decoding base64");
  EVP_DecodeInit(ctx.get());
  // OpenSSL wants padded input; tolerate producers that strip '='.
  std::string padded;
  size_t significant = 0;
  for (char c : text) significant += (c != '\n' && c != '\r');
  if (significant % 4 != 0) {
    padded.assign(text);
    padded.append(4 - significant % 4, '=');
    text = padded;
  }
  // EVP takes int lengths; a Kafka message never comes near this.
  if (text.size() > (1u << 30)) return Status::InvalidArgument("base64 text larger than 1 GiB");
  std::string out(text.size() / 4 * 3 + 3, '\0');
  int total = 0;
  if (EVP_DecodeUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &total,
                       reinterpret_cast<const unsigned char*>(text.data()),
                       static_cast<int>(text.size())) < 0) {
    return Status::InvalidArgument("invalid base64");
  }
  int written = 0;
  if (EVP_DecodeFinal(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + total,
                      &written) < 0) {
    return Status::InvalidArgument("invalid base64");
  }
  out.resize(total + written);
  return out;
}

std::string EncodeBase64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(n);
  return out;
}

}  // namespace pagesieve::engine
