#pragma once

// A short page's title as part of its identity. See docs/fingerprints.md
// ("Short pages: the title counts").

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pagesieve::fingerprint {

// The distinct tokens of a page's normalized title, each as the low 32 bits
// of its token hash, sorted: what a short page's sketch carries of its title
// (MinHashSketch::title_tokens). Only the first
// MinHashSketch::kMaxTitleTokens tokens count: a title is a line, and 32
// words say which page it names. Empty for an empty title.
std::vector<uint32_t> TitleTokens(std::string_view normalized_title);

// Whether two short pages' titles name the same page, from their sorted
// title tokens: nearly all (80 %) of the shorter title's tokens are in the
// longer one, and they are more than half of the longer one. An empty side
// gives no evidence, and agrees.
//
// Why not a similarity of the two token sets: below
// content.short_text_tokens, what the extractor finds is often what every
// page of the site shares (a tag page, a soft 404, a forum thread whose
// extractor took the sidebar), and only the titles tell such pages apart;
// but a copy of an article often shows its title with a site name or a
// subtitle that the other side lacks ("Hermitian matrix - Wikipedia" and
// "Hermitian matrix"). Those added words are not a different page; a
// different thread, tag or search is ("Posts tagged winter", "Posts tagged
// summer"). The second condition stops a title that is only the site's
// name from agreeing with every "<headline> | <site>".
bool TitlesAgree(std::span<const uint32_t> a, std::span<const uint32_t> b);

// How many distinct values a sorted sequence holds.
size_t CountDistinctSorted(std::span<const uint64_t> sorted);

}  // namespace pagesieve::fingerprint
