#pragma once

// A short page's title as part of its identity. See docs/fingerprints.md
// ("Short pages: the title counts").

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pagesieve::fingerprint {

// Appends the MinHash features of a page's normalized title to `features`
// (the page's sorted text shingles; left unsorted): one feature per distinct
// title token and copy, with as many copies as it takes for the title to be
// about a third of the set (half as many features as `text_features`, the
// distinct shingles of the text), at least one each.
//
// Why: below content.short_text_tokens, the extracted text of a page is
// often mostly what every page of its site shares (a tag page, an error
// page, a forum thread whose extractor took the sidebar), and it cannot
// tell such pages apart; their titles can. Two such pages with different
// titles then estimate J at most about half their text's, while the same
// title raises it (a third of the set agrees). Tokens, not shingles: a
// title with one word changed still agrees in most of its features.
void AppendTitleFeatures(std::string_view normalized_title, size_t text_features,
                         std::vector<uint64_t>* features);

// How many distinct values a sorted sequence holds.
size_t CountDistinctSorted(std::span<const uint64_t> sorted);

}  // namespace pagesieve::fingerprint
