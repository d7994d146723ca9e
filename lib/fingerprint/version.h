#pragma once

namespace pagesieve::fingerprint {

// The version of every fingerprint algorithm in this module (digests,
// tokenization, shingling, feature hashing, weighting, SimHash). Stored
// fingerprints are only comparable with fingerprints of the same version.
//
// Bump it whenever any fingerprint of the same input and the same options
// could change: a new tokenizer rule, another seed, a different weight
// formula or rounding. Changes in lib/content (extraction, normalization)
// or lib/url (canonical form) change fingerprints too and call for a bump.
inline constexpr int kFingerprintVersion = 1;

}  // namespace pagesieve::fingerprint
