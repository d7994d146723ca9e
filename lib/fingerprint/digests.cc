#include "fingerprint/digests.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "fingerprint/base32.h"

namespace pagesieve::fingerprint {
namespace {

// OpenSSL 3 looks an algorithm up by name on every EVP_sha256() use; fetching
// it once saves that lookup on every page. Fetched objects are thread-safe
// and live until exit.
const EVP_MD* FetchOnce(const char* name) {
  const EVP_MD* md = EVP_MD_fetch(nullptr, name, nullptr);
  if (md == nullptr) {
    // Only a broken OpenSSL installation gets here: nothing sensible to do.
    std::fprintf(stderr, "pagesieve: OpenSSL has no %s digest\n", name);
    std::abort();
  }
  return md;
}

// Hashing an in-memory buffer fails only on allocation failure or a broken
// library, neither of which a caller could handle: abort like `new` would.
void Digest(const EVP_MD* md, std::string_view bytes, unsigned char* out) {
  if (EVP_Digest(bytes.data(), bytes.size(), out, nullptr, md, nullptr) != 1) {
    std::fprintf(stderr, "pagesieve: OpenSSL EVP_Digest failed\n");
    std::abort();
  }
}

}  // namespace

Digest128 Sha256Digest128(std::string_view bytes) {
  static const EVP_MD* const kSha256 = FetchOnce("SHA256");
  unsigned char full[EVP_MAX_MD_SIZE];
  Digest(kSha256, bytes, full);
  return Digest128::FromView(std::string_view(reinterpret_cast<const char*>(full), 16));
}

std::array<uint8_t, 20> Sha1(std::string_view bytes) {
  static const EVP_MD* const kSha1 = FetchOnce("SHA1");
  unsigned char full[EVP_MAX_MD_SIZE];
  Digest(kSha1, bytes, full);
  std::array<uint8_t, 20> out;
  std::copy(full, full + out.size(), out.begin());
  return out;
}

std::string PayloadDigest(std::string_view raw_body) {
  std::array<uint8_t, 20> sha1 = Sha1(raw_body);
  return "sha1:" +
         Base32Encode(std::string_view(reinterpret_cast<const char*>(sha1.data()), sha1.size()));
}

}  // namespace pagesieve::fingerprint
