#pragma once

// The entry point of lib/fingerprint: everything pagesieve compares pages by,
// computed from one fetched page. See docs/fingerprints.md.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/digest.h"
#include "common/status_or.h"
#include "config/config.h"
#include "content/content.h"
#include "fingerprint/digests.h"
#include "fingerprint/minhash.h"
#include "fingerprint/simhash.h"
#include "fingerprint/text_simhash.h"
#include "fingerprint/title_tokens.h"
#include "fingerprint/version.h"
#include "url/canonicalizer.h"

namespace pagesieve::fingerprint {

// One fetched page. Views into the caller's memory, valid during the call.
struct PageInput {
  std::string_view url;
  std::string_view content_type;
  std::string_view body;  // raw bytes as fetched
  // Main text the crawler already extracted; when present, the body is not
  // parsed and this text stands for the page's text.
  std::optional<std::string_view> text;
  // The payload digest when the input already has it: a WARC record's is
  // over the payload as stored, which `body` (decoded) no longer is.
  std::optional<std::string_view> payload_digest;
};

struct PageFingerprint {
  url::CanonicalUrl canonical_url;
  std::string title;    // empty unless extracted from HTML
  std::string text;     // the main text, before normalization
  uint32_t tokens = 0;  // tokens in the normalized text (unspaced scripts: characters)
  Digest128 url;        // Sha256Digest128(canonical_url.spec)
  // Sha256Digest128 of the normalized main text, preceded by the normalized
  // title and a newline when the text is shorter than short_text_tokens and
  // the page has a title; of the whole raw body when the content is not text
  // or no text was found.
  Digest128 content;
  std::string payload;              // PayloadDigest(raw body), or the input's payload_digest
  std::optional<uint64_t> simhash;  // absent below near.min_tokens
  // MinHash of the main text's shingles (carrying, below short_text_tokens,
  // the title's tokens): absent when there is no SimHash,
  // when the text has fewer than near.minhash_min_shingles distinct
  // shingles, or when near.minhash_slots is 0.
  std::optional<MinHashSketch> minhash;
  bool truncated = false;  // the body was longer than max_body_bytes
};

struct FingerprintOptions {
  // Only this many bytes of a body are parsed, extracted and hashed for text
  // (max_body_bytes); the payload digest still covers all of it.
  size_t max_body_bytes = size_t{8} << 20;
  int shingle_size = 3;       // near.shingle_size
  uint32_t min_tokens = 50;   // near.min_tokens
  double heading_weight = 2;  // near.heading_weight
  MinHashOptions minhash;     // near.minhash_*
  // Below this many tokens of main text, the page's title is part of its
  // identity: its content digest covers title and text, and its MinHash
  // sketch carries the title's tokens, which must agree with a near
  // candidate's (content.short_text_tokens; title_tokens.h says why). 0:
  // titles never count.
  uint32_t short_text_tokens = 1500;
  content::ExtractionOptions extraction;
  content::NormalizeOptions normalize;
  url::CanonicalizerOptions url;
};

// Reads max_body_bytes, the near.* fingerprinting keys, and the [content]
// and url.* keys the content and url modules define. An out-of-range value
// is an InvalidArgument naming its key.
StatusOr<FingerprintOptions> FingerprintOptionsFromConfig(const Config& config);

// Computes PageFingerprints. Holds per-thread buffers (the HTML extractor,
// token and shingle vectors): use one Fingerprinter per thread.
class Fingerprinter {
 public:
  explicit Fingerprinter(FingerprintOptions options);

  // Error (InvalidArgument) only when the URL cannot be canonicalized; any
  // body works, including empty, binary and hostile ones.
  StatusOr<PageFingerprint> Fingerprint(const PageInput& page);

  const FingerprintOptions& options() const { return options_; }

 private:
  // Fills title and text, and the normalized blocks and emphasized texts.
  void ExtractText(const PageInput& page, std::string_view body, PageFingerprint* out);
  void ExtractHtml(std::string_view body, std::string_view content_type, PageFingerprint* out);
  // Plain text: its paragraphs (split at blank lines) are its blocks.
  void AddParagraphs(std::string_view text);
  // Appends one normalized block to blocks_ and normalized_; false if empty.
  bool AddBlock(std::string normalized);
  // Whether this page's title is part of its identity (short_text_tokens).
  bool TitleCounts(uint32_t tokens) const;
  Digest128 ContentDigest(std::string_view body, bool title_counts);
  std::optional<MinHashSketch> Sketch(bool title_counts);

  FingerprintOptions options_;
  url::Canonicalizer canonicalizer_;
  content::Extractor extractor_;
  TextSimHasher simhasher_;
  MinHasher minhasher_;
  // Per-page buffers, kept to reuse their memory.
  std::string normalized_;               // the normalized main text: blocks_ joined by ' '
  std::vector<std::string> blocks_;      // the normalized blocks
  std::vector<std::string> emphasized_;  // the normalized title and headings
  std::string normalized_title_;         // empty without a title
  std::string digest_input_;             // title and text, for a short page's digest
  std::vector<std::string_view> block_views_;
  std::vector<std::string_view> emphasized_views_;
};

}  // namespace pagesieve::fingerprint
