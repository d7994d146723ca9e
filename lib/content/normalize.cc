// NormalizeForHashing: UTF-8 repair, NFKC + case folding (utf8proc, with an
// ASCII fast path), whitespace collapsing, then date and time masking.

#include <utf8proc.h>

#include <array>
#include <string>
#include <vector>

#include "content/content.h"
#include "content/date_mask.h"
#include "content/utf8.h"

namespace pagesieve::content {
namespace {

// NFKC with case folding; default-ignorable code points (soft hyphens,
// zero-width spaces and joiners) dropped, as in Unicode's NFKC_Casefold, so
// invisible characters a page inserts or not do not change its hash.
constexpr utf8proc_option_t kFoldOptions = static_cast<utf8proc_option_t>(
    UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD | UTF8PROC_IGNORE);

constexpr std::array<uint8_t, 128> MakeAsciiFold() {
  std::array<uint8_t, 128> t{};
  for (int c = 0; c < 128; ++c) {
    t[c] = static_cast<uint8_t>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (c < 0x20 || c == 0x7F) t[c] = ' ';  // controls, tabs and newlines are spaces
  }
  return t;
}
constexpr std::array<uint8_t, 128> kAsciiFold = MakeAsciiFold();

// Appends `c` (a folded ASCII byte) with whitespace collapsed.
inline void PutCollapsed(char c, bool* space, std::string* out) {
  if (c == ' ') {
    if (!*space) out->push_back(' ');
    *space = true;
  } else {
    out->push_back(c);
    *space = false;
  }
}

void FoldAscii(std::string_view text, bool* space, std::string* out) {
  for (char c : text)
    PutCollapsed(static_cast<char>(kAsciiFold[static_cast<uint8_t>(c)]), space, out);
}

bool IsUnicodeSpace(utf8proc_int32_t cp) {
  if (cp < 0x80) return kAsciiFold[cp] == ' ';
  const utf8proc_category_t cat = utf8proc_category(cp);
  return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL ||
         cat == UTF8PROC_CATEGORY_ZP || cat == UTF8PROC_CATEGORY_CC || cp == 0x85;
}

// utf8proc over one short stretch of valid UTF-8, through a per-thread code
// point buffer so that no call allocates once the buffer has grown.
void FoldUnicode(std::string_view text, bool* space, std::string* out) {
  thread_local std::vector<utf8proc_int32_t> buffer;
  const auto* src = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const auto len = static_cast<utf8proc_ssize_t>(text.size());
  if (buffer.size() < text.size() + 16) buffer.resize(text.size() + 16);
  utf8proc_ssize_t n = utf8proc_decompose(
      src, len, buffer.data(), static_cast<utf8proc_ssize_t>(buffer.size()), kFoldOptions);
  if (n > static_cast<utf8proc_ssize_t>(buffer.size())) {
    buffer.resize(static_cast<size_t>(n));
    n = utf8proc_decompose(src, len, buffer.data(), n, kFoldOptions);
  }
  if (n < 0) {  // cannot happen on valid UTF-8; keep the bytes rather than lose them
    out->append(text);
    *space = false;
    return;
  }
  n = utf8proc_normalize_utf32(buffer.data(), n, kFoldOptions);
  utf8proc_uint8_t encoded[4];
  for (utf8proc_ssize_t i = 0; i < n; ++i) {
    const utf8proc_int32_t cp = buffer[i];
    if (IsUnicodeSpace(cp)) {
      PutCollapsed(' ', space, out);
      continue;
    }
    const utf8proc_ssize_t bytes = utf8proc_encode_char(cp, encoded);
    out->append(reinterpret_cast<const char*>(encoded), static_cast<size_t>(bytes));
    *space = false;
  }
}

// NFKC + case folding of valid UTF-8 with whitespace collapsed. ASCII runs
// take the fast path; each non-ASCII run goes to utf8proc together with the
// ASCII character before it (which a combining mark may compose with).
// Cutting there is exact: no ASCII character composes with what precedes
// it, and case folding has no context.
void Fold(std::string_view text, std::string* out) {
  bool space = true;  // drops leading whitespace
  size_t i = 0;
  while (i < text.size()) {
    const size_t ascii_end = i + AsciiPrefixLength(text.substr(i));
    if (ascii_end == text.size()) {
      FoldAscii(text.substr(i), &space, out);
      break;
    }
    const size_t start = ascii_end > i ? ascii_end - 1 : ascii_end;
    FoldAscii(text.substr(i, start - i), &space, out);
    size_t end = ascii_end;
    while (end < text.size() && static_cast<unsigned char>(text[end]) >= 0x80) ++end;
    FoldUnicode(text.substr(start, end - start), &space, out);
    i = end;
  }
  if (!out->empty() && out->back() == ' ') out->pop_back();
}

}  // namespace

std::string NormalizeForHashing(std::string_view text, const NormalizeOptions& options) {
  std::string repaired;
  if (ValidUtf8PrefixLength(text) != text.size()) {
    AppendRepairedUtf8(text, &repaired);
    text = repaired;
  }
  std::string folded;
  folded.reserve(text.size());
  Fold(text, &folded);
  std::string out;
  out.reserve(folded.size());
  AppendMaskedDates(folded, options.mask_numbers, &out);
  return out;
}

}  // namespace pagesieve::content
