#pragma once

// What the words of a short block of text say about it, whatever the markup
// around it: a credit line ("This article first appeared on ..."), an ad
// label, a share bar with counts, a cookie notice, a subscription prompt, or
// the label of a section that is not the article ("Related articles", "12
// comments", "Über den Autor"). Templates differ in their markup but reuse
// these phrases, so the same article extracts the same in any of them.
// Internal.

#include <cstdint>
#include <string_view>

namespace pagesieve::content {

enum class TextRole : uint8_t {
  kContent,      // ordinary text
  kBoilerplate,  // the block is boilerplate on its own: drop it
  // The label of a list of teasers ("Related articles", "Mehr zum Thema",
  // "Newsletter"): drop it and the link lists and short teasers after it.
  kTeaserLabel,
  // The label of a section that runs to its end ("12 Comments", "About the
  // author"): drop it and everything up to the next heading of its rank.
  kTailLabel,
};

// Blocks longer than this are always content.
inline constexpr size_t kMaxBoilerplateBytes = 600;

// Case-insensitive (ASCII and the German umlauts) phrase matching over the
// first words of `text`; linear in min(text.size(), kMaxBoilerplateBytes).
// English and German phrases, with the commonest "related" and "comments"
// labels of French, Spanish, Italian, Polish and Dutch, and the "comments"
// labels of Chinese, Japanese and Korean.
TextRole ClassifyBlockText(std::string_view text);

// Whether ClassifyBlockText could say anything but kContent of `text`: its
// first word starts a phrase that applies to a block of its length. A cheap
// test (one table lookup); false positives are rare.
bool MayBeBoilerplateText(std::string_view text);

}  // namespace pagesieve::content
