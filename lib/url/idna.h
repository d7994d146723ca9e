#pragma once

// Internationalized domain names, through libidn2.

#include <string>
#include <string_view>

#include "common/status.h"

namespace pagesieve::url::internal {

// Whether a lowercase host has a label starting with "xn--". Such a host, or
// one with a non-ASCII byte, goes through IDNA; other ASCII hosts are left
// alone, which keeps libidn2 off the hot path.
bool HasAceLabel(std::string_view lowercase_host);

// Appends the ASCII (punycode) form of a UTF-8 host by UTS-46 non-transitional
// processing and IDNA2008 (so "straße.de" → "xn--strae-oqa.de", "BÜCHER.de" →
// "xn--bcher-kva.de", fullwidth dots and letters are mapped). Only labels that
// need it are given to libidn2: other ASCII labels are just lowercased, so an
// ASCII label libidn2 would reject ("r3---sn-abc") does not make the host an
// error. Errors: invalid UTF-8, or a label libidn2 rejects (disallowed code
// point, bad punycode, label over 63 bytes, ...). Results, errors included,
// are cached per thread (256 hosts), since libidn2 is slow and hosts repeat.
Status AppendIdnaHost(std::string_view utf8_host, std::string* out);

// Whether `text` is valid UTF-8 (no overlongs, surrogates or values past
// U+10FFFF).
bool IsValidUtf8(std::string_view text);

}  // namespace pagesieve::url::internal
