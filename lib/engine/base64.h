#pragma once

#include <string>
#include <string_view>

#include "common/status_or.h"

namespace pagesieve::engine {

// Standard base64 (RFC 4648, with or without padding; line breaks allowed),
// decoded with OpenSSL's EVP decoder.
StatusOr<std::string> DecodeBase64(std::string_view text);

// Standard base64 with padding, for dead-lettered records that are not UTF-8.
std::string EncodeBase64(std::string_view bytes);

}  // namespace pagesieve::engine
