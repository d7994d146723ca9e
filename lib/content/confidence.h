#pragma once

// Whether what the extractor chose reads as the page's article, or only as
// what a page shares with the rest of its site (a sidebar, a link list, a
// line or two): the fingerprinter must not compare pages by the latter.
// The thresholds are set so that nearly every page of the annotated sets
// (all of which have an article) passes; see docs/content-extraction.md.
// Internal.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "content/analysis.h"
#include "content/content.h"
#include "content/dom.h"

namespace pagesieve::content {

// A paragraph block this long is prose.
inline constexpr size_t kArticleProseBlockBytes = 80;
// An article has this much prose (two or three sentences) or this much
// text in all (a table, a list of short lines).
inline constexpr size_t kArticleProseBytes = 100;
inline constexpr size_t kArticleTextBytes = 500;
// Content found only inside an element named like a sidebar or navigation
// (by the passes that ignore class names) needs this much prose.
inline constexpr size_t kArticleInBoilerplateProseBytes = 600;
// Content more than this fraction link text is a link list.
inline constexpr double kArticleLinkDensityMax = 0.5;

// `roots` and `blocks` are what one pass chose and emitted, `stats` that
// pass's statistics; `relaxed` is true for the passes that no longer remove
// elements by their class (there, content inside a "sidebar" or "nav"
// element is what the strict pass rejected, not an article).
bool LooksLikeArticle(const Document& doc, const std::vector<NodeStats>& stats,
                      const std::vector<uint32_t>& roots, const std::vector<TextBlock>& blocks,
                      bool relaxed);

}  // namespace pagesieve::content
