#pragma once

// Internationalized domain names, through libidn2.

#include <string>
#include <string_view>

#include "common/status.h"

namespace pagesieve::url::internal {

// Whether a percent-decoded host must go through IDNA: it has a non-ASCII
// byte or a label starting with "xn--" (any case). Pure ASCII hosts without
// A-labels are left alone, which keeps libidn2 off the hot path.
bool NeedsIdna(std::string_view host);

// Appends the ASCII (punycode) form of a UTF-8 host by UTS-46 non-transitional
// processing and IDNA2008 (so "straße.de" → "xn--strae-oqa.de", "BÜCHER.de" →
// "xn--bcher-kva.de", fullwidth dots and letters are mapped). Only labels that
// need it are given to libidn2: other ASCII labels are just lowercased, so an
// ASCII label libidn2 would reject ("r3---sn-abc") does not make the host an
// error. Errors: invalid UTF-8, or a label libidn2 rejects (disallowed code
// point, bad punycode, label over 63 bytes, ...).
Status AppendIdnaHost(std::string_view utf8_host, std::string* out);

// Whether `text` is valid UTF-8 (no overlongs, surrogates or values past
// U+10FFFF).
bool IsValidUtf8(std::string_view text);

}  // namespace pagesieve::url::internal
