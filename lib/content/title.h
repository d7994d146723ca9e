#pragma once

// The title of a page. Internal.

#include <string>
#include <string_view>

#include "content/dom.h"

namespace pagesieve::content {

// og:title (or twitter:title) when the page has one: it is the publisher's
// own title without the site name. Else <title>, without a " | Site name"
// part when what remains still has at least three words or is what the
// page's first <h1> says. Else that <h1> (outside removed boilerplate,
// given by the caller).
std::string ChooseTitle(const Document& doc, std::string_view first_h1);

// <title> text without its site-name part (see ChooseTitle); `headline`
// is the page's first <h1>, whitespace-collapsed, or empty.
std::string StripSiteName(std::string_view title, std::string_view headline = {});

}  // namespace pagesieve::content
