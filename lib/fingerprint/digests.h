#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/digest.h"

namespace pagesieve::fingerprint {

// The first 128 bits of SHA-256 over `bytes`. Cryptographic on purpose: a
// page must not be able to collide with another page (and get it suppressed
// as a duplicate) by design; 128 bits keep keys short while leaving collision
// search at 2^64 work.
Digest128 Sha256Digest128(std::string_view bytes);

// SHA-1 over `bytes`, the 20 raw bytes.
std::array<uint8_t, 20> Sha1(std::string_view bytes);

// "sha1:" + RFC 4648 base32 of SHA-1 over the raw body: the form of the
// WARC/1.1 WARC-Payload-Digest header and of CDX digest columns (without the
// prefix), so verdicts line up with archive tooling. Always 37 characters.
std::string PayloadDigest(std::string_view raw_body);

}  // namespace pagesieve::fingerprint
