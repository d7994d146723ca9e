#pragma once

// Masking dates and clock times in normalized text. Internal.

#include <string>
#include <string_view>

namespace pagesieve::content {

inline constexpr std::string_view kDatePlaceholder = "<date>";
inline constexpr std::string_view kTimePlaceholder = "<time>";
inline constexpr std::string_view kNumberPlaceholder = "<num>";

// Appends `text` (case-folded, whitespace-collapsed) to `out`, replacing
//   dates:  2012-05-31, 2012/5/31, 31.05.2012, 5/31/12, 31. mai 2012,
//           31 may, may 31, 2012, may 2012, with month names in English,
//           German, French, Spanish, Italian and Dutch;
//   times:  10:30, 10:30:15, 10:30 pm, 10 am, 14.30 uhr, and relative
//           times (5 minutes ago, vor 3 stunden);
// by kDatePlaceholder / kTimePlaceholder, and with `mask_numbers` every
// other number (digits with inner , or . separators) by kNumberPlaceholder.
// Only digit runs that start a word trigger a match, and each match looks a
// bounded distance ahead (and back over one emitted word), so the cost is
// linear in the text.
void AppendMaskedDates(std::string_view text, bool mask_numbers, std::string* out);

}  // namespace pagesieve::content
