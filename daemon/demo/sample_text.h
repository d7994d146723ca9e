#pragma once

#include <string>
#include <vector>

#include "demo/sample_rng.h"

namespace pagesieve::demo {

// A news article of the sample crawl: what stays the same when the page is
// fetched again, mirrored or re-templated.
struct Article {
  std::string headline;
  std::string slug;    // the URL path segment made from the headline
  std::string byline;  // "By Ana Moreno, 5 October 2026"
  std::vector<std::string> paragraphs;
};

// Writes a new local-news article (about 900 to 1,500 words) set in `town`,
// published on `date` ("5 October 2026"). Sentences are drawn from phrase
// pools, so two articles of one site share wording the way a local paper's
// stories do, yet stay far apart in SimHash.
Article WriteArticle(SampleRng& rng, const std::string& town, const std::string& date);

// A copy editor's fix: one vowel of the last word of a paragraph changed.
Article EditOneWord(const Article& article, SampleRng& rng);

// The article with a one-sentence correction appended as its last paragraph.
Article AppendCorrection(const Article& article, SampleRng& rng);

// A new article that quotes the first paragraph of `earlier` and is
// otherwise new: a hard negative that shares text with an older page.
Article FollowUp(const Article& earlier, SampleRng& rng, const std::string& town,
                 const std::string& date);

// A short headline for teaser lists (the rotating "most read" box).
std::string TeaserHeadline(SampleRng& rng, const std::string& town);

}  // namespace pagesieve::demo
