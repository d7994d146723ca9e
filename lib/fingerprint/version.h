#pragma once

namespace pagesieve::fingerprint {

// The version of every fingerprint algorithm in this module (digests,
// tokenization, shingling, feature hashing, weighting, SimHash, MinHash).
// Stored fingerprints are only comparable with fingerprints of the same
// version.
//
// Bump it whenever any fingerprint of the same input and the same options
// could change: a new tokenizer rule, another seed, a different weight
// formula or rounding. Changes in lib/content (extraction, normalization)
// or lib/url (canonical form) change fingerprints too and call for a bump.
//
// History:
//   1  digests, tokenizer, shingles, weighted SimHash.
//   2  MinHash sketches of the main text's shingles (their seed, mixer,
//      densification and stored form are part of the algorithm); the
//      extraction changes made alongside also change text and digests, and
//      a short page's title joins its digest and its MinHash set
//      (content.short_text_tokens). Nothing was released between these.
//   3  a sketch stores the size of the set it was made of (the near tier's
//      containment rule needs it): a 4-byte field in its header.
//   4  a short page's title leaves its MinHash set (the set is the text's
//      shingles only, so sketches and set sizes change) and follows the
//      slots as its tokens, which the near tier asks to agree.
//   5  extraction: a parent's class name no longer lifts it over the
//      article, a widget's gallery gives way to the article around it,
//      teaser summaries in lists, CJK comment sections and siblings
//      whose negative class word is cancelled out are dropped, and a
//      short <title> part the <h1> repeats is the title (texts, titles
//      and digests of some pages change).
inline constexpr int kFingerprintVersion = 5;

}  // namespace pagesieve::fingerprint
