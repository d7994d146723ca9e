#pragma once

// The entry point of lib/content: from a fetched body to the main text a
// fingerprint is computed over.
//
//   ClassifyContent ─▶ DecodeToUtf8 ─▶ Extractor::Extract ─▶ NormalizeForHashing
//   (html/text/other)  (any charset)    (title + blocks)      (per block)
//
// Everything here is total: bad bytes, broken markup and hostile nesting
// give a (possibly empty) result, never an error and never a crash. See
// docs/content-extraction.md for the rules and the measurements behind them.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status_or.h"
#include "config/config.h"

namespace pagesieve::content {

enum class ContentKind {
  kHtml,   // text/html, application/xhtml+xml, or a body that looks like HTML
  kText,   // text/plain and other textual types: the body is the text
  kOther,  // PDF, images, archives...: only the raw bytes are digested
};

// What to do with a body. The media type decides when it is known
// (text/html and xhtml → kHtml; text/plain, text/markdown, text/csv... →
// kText; application/pdf, image/*, audio/*, video/*, font/*, zip... →
// kOther). An empty, generic (application/octet-stream, */*) or unknown
// type is decided by sniffing the first bytes of the body: an HTML-looking
// start (after a BOM and whitespace: <!doctype html, <html, <head, <body, or
// a comment followed by one of them) → kHtml; a known binary signature (%PDF,
// PNG, GIF, JPEG, ZIP, gzip...) or NUL/control bytes → kOther; else kText.
ContentKind ClassifyContent(std::string_view content_type, std::string_view body);

// Bytes → valid UTF-8. The charset is taken, in this order of precedence,
// from a byte-order mark, the content type's charset parameter, and (unless
// the type names a non-HTML text type such as text/plain) a <meta charset>
// or <meta http-equiv="Content-Type"> in the first 1024 bytes; UTF-8
// otherwise. Labels follow the WHATWG Encoding Standard
// (latin1 and ascii mean windows-1252, and so on). Invalid sequences become
// U+FFFD; an unsupported charset decodes as UTF-8. Never fails.
std::string DecodeToUtf8(std::string_view body, std::string_view content_type);

struct TextBlock {
  enum class Kind { kHeading, kParagraph };
  Kind kind;
  std::string text;  // whitespace-collapsed, never empty
};

struct MainContent {
  // The page title: og:title when present, else <title> with a trailing
  // " | Site name" style suffix removed when the rest still names the page,
  // else the first <h1>. Whitespace-collapsed; may be empty.
  std::string title;
  // The main content in document order.
  std::vector<TextBlock> blocks;
  // Whether the blocks read as the page's article: some prose (about three
  // sentences), not a link list, and not found only inside elements named
  // like navigation or a sidebar. When false the blocks are the best guess
  // still, but may be what the page shares with every page of its site (a
  // forum page whose posts the extractor cannot see gives its sidebar): do
  // not tell pages apart or match them by such text.
  bool article_found = false;

  // The blocks joined by "\n\n".
  std::string Text() const;
};

// Knobs of the extractor; the defaults are config/pagesieve.toml's [content].
struct ExtractionOptions {
  // A block whose text is more than this fraction link text is boilerplate
  // (content.link_density_max).
  double link_density_max = 0.8;
  // Paragraphs shorter than this many characters do not count toward a
  // candidate's score (content.min_paragraph_chars); they are still kept
  // inside the chosen content.
  int min_paragraph_chars = 25;
  // Elements nested deeper than this are flattened into their ancestor at
  // this depth (content.max_depth): keeps every walk over the tree bounded
  // whatever the nesting of the input.
  int max_depth = 256;
  // Keep only a candidate's own subtree (false) or also sibling blocks that
  // look like content (true, readability's behaviour) (content.include_siblings).
  bool include_siblings = true;
};

StatusOr<ExtractionOptions> ExtractionOptionsFromConfig(const Config& config);

// Finds the main content of one HTML page.
//
// An extractor keeps reusable buffers (an arena for the parsed tree), so a
// page costs no allocation once the buffers have grown; memory is bounded by
// a small multiple of the largest page seen. Not thread-safe: use one per
// thread. Never fails: in the worst case the content is empty.
class Extractor {
 public:
  explicit Extractor(ExtractionOptions options = {});
  ~Extractor();
  Extractor(Extractor&&) noexcept;
  Extractor& operator=(Extractor&&) noexcept;

  // `utf8_html` should be valid UTF-8 (DecodeToUtf8's output); other bytes
  // are passed through, not interpreted.
  MainContent Extract(std::string_view utf8_html);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct NormalizeOptions {
  // Replace every remaining number by a placeholder too (content.mask_numbers).
  bool mask_numbers = false;
};

StatusOr<NormalizeOptions> NormalizeOptionsFromConfig(const Config& config);

// Text → the form digests and SimHash are computed over: Unicode NFKC with
// case folding, every run of whitespace (and control characters) collapsed
// to one space with none at either end, and dates and clock times replaced
// by a fixed placeholder so that a page re-rendered at another time hashes
// the same (with mask_numbers, every other digit run too). Invalid UTF-8 is
// replaced by U+FFFD first. Used per block by the fingerprinter.
std::string NormalizeForHashing(std::string_view text, const NormalizeOptions& options = {});

}  // namespace pagesieve::content
