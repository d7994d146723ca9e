#pragma once

#include <string>
#include <string_view>

namespace pagesieve::fingerprint {

// RFC 4648 section 6 base32 (alphabet A-Z 2-7, '=' padding to a multiple of
// 8 characters). WARC-Payload-Digest uses it for SHA-1 digests, where 20
// bytes encode to exactly 32 characters and need no padding.
std::string Base32Encode(std::string_view bytes);

}  // namespace pagesieve::fingerprint
