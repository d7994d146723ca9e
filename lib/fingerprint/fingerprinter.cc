#include "fingerprint/fingerprinter.h"

#include <algorithm>
#include <utility>

namespace pagesieve::fingerprint {
namespace {

// The longest prefix of `text` of at most `max` bytes that does not end in
// the middle of a UTF-8 sequence.
std::string_view CutAtCharBoundary(std::string_view text, size_t max) {
  if (text.size() <= max) return text;
  size_t end = max;
  // Back off over at most 3 continuation bytes (10xxxxxx) to a lead byte.
  for (int i = 0; i < 3 && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80; ++i) {
    --end;
  }
  return text.substr(0, end);
}

// Where the paragraph starting at `begin` ends: at the next blank line (a
// newline followed by optional spaces, tabs or CRs and another newline), or
// at the end of the text. Sets `*next` to where the next paragraph starts.
size_t ParagraphEnd(std::string_view text, size_t begin, size_t* next) {
  for (size_t nl = text.find('\n', begin); nl != std::string_view::npos;
       nl = text.find('\n', nl + 1)) {
    size_t after = text.find_first_not_of(" \t\r", nl + 1);
    if (after != std::string_view::npos && text[after] == '\n') {
      *next = after + 1;
      return nl;
    }
  }
  *next = text.size();
  return text.size();
}

}  // namespace

Fingerprinter::Fingerprinter(FingerprintOptions options)
    : options_(std::move(options)),
      canonicalizer_(options_.url),
      extractor_(options_.extraction),
      simhasher_(
          SimHashOptions{options_.shingle_size, options_.min_tokens, options_.heading_weight}),
      minhasher_(options_.minhash) {}

StatusOr<PageFingerprint> Fingerprinter::Fingerprint(const PageInput& page) {
  PageFingerprint out;
  PS_ASSIGN_OR_RETURN(out.canonical_url, canonicalizer_.Canonicalize(page.url));
  out.url = Sha256Digest128(out.canonical_url.spec);
  out.payload = page.payload_digest ? std::string(*page.payload_digest) : PayloadDigest(page.body);

  std::string_view body = page.body;
  if (body.size() > options_.max_body_bytes) {
    body = body.substr(0, options_.max_body_bytes);
    out.truncated = true;
  }
  ExtractText(page, body, &out);

  block_views_.assign(blocks_.begin(), blocks_.end());
  emphasized_views_.assign(emphasized_.begin(), emphasized_.end());
  TextSimHasher::Result shingled = simhasher_.Compute(block_views_, emphasized_views_);
  out.tokens = shingled.tokens;
  out.simhash = shingled.simhash;
  const bool title_counts = TitleCounts(out.tokens);
  out.content = ContentDigest(page.body, title_counts);
  if (out.simhash.has_value()) out.minhash = Sketch(title_counts);
  return out;
}

bool Fingerprinter::TitleCounts(uint32_t tokens) const {
  return !normalized_title_.empty() && !normalized_.empty() && tokens < options_.short_text_tokens;
}

Digest128 Fingerprinter::ContentDigest(std::string_view body, bool title_counts) {
  // No text: fall back to the bytes, so that two empty or binary pages only
  // match when they are byte-identical. Always the whole body: a truncated
  // prefix would make different files look identical.
  if (normalized_.empty()) return Sha256Digest128(body);
  if (!title_counts) return Sha256Digest128(normalized_);
  // Normalized text holds no newline, so the two parts cannot run together.
  digest_input_.assign(normalized_title_);
  digest_input_.push_back('\n');
  digest_input_ += normalized_;
  return Sha256Digest128(digest_input_);
}

std::optional<MinHashSketch> Fingerprinter::Sketch(bool title_counts) {
  // The same shingles as the SimHash, already sorted: no second pass over the text.
  std::optional<MinHashSketch> sketch = minhasher_.Sketch(simhasher_.shingles());
  if (!sketch || normalized_title_.empty()) return sketch;
  // The title goes beside the sketch, not into its set: the near tier asks
  // the titles to agree where either page is short (TitlesAgree), which a
  // site name or subtitle on one side only does not upset, where title
  // features in the set lowered such copies' Jaccard below any threshold.
  // A long page carries its title too, for a short page to compare with.
  return MinHashSketch::Create(sketch->bits(), {sketch->values().begin(), sketch->values().end()},
                               sketch->set_size(), {TitleTokens(normalized_title_), title_counts})
      .value();
}

void Fingerprinter::ExtractText(const PageInput& page, std::string_view body,
                                PageFingerprint* out) {
  normalized_.clear();
  blocks_.clear();
  emphasized_.clear();
  normalized_title_.clear();
  if (page.text.has_value()) {
    std::string_view text = CutAtCharBoundary(*page.text, options_.max_body_bytes);
    out->truncated = out->truncated || text.size() < page.text->size();
    out->text = std::string(text);
    AddParagraphs(out->text);
    return;
  }
  switch (content::ClassifyContent(page.content_type, body)) {
    case content::ContentKind::kOther:
      return;
    case content::ContentKind::kText:
      out->text = content::DecodeToUtf8(body, page.content_type);
      AddParagraphs(out->text);
      return;
    case content::ContentKind::kHtml:
      ExtractHtml(body, page.content_type, out);
      return;
  }
}

// Normalized block by block, to know which text came from a heading. Joined
// by one space, the blocks equal the normalization of the whole text (which
// collapses the blank line between blocks to one space), so a page digests
// the same whether we extract its text or the crawler did.
void Fingerprinter::ExtractHtml(std::string_view body, std::string_view content_type,
                                PageFingerprint* out) {
  std::string utf8 = content::DecodeToUtf8(body, content_type);
  content::MainContent main = extractor_.Extract(utf8);
  out->title = std::move(main.title);
  // No article found: the best guess may be the sidebar every page of the
  // site shares. The page has no main text: only byte-identical pages match.
  if (!main.article_found) return;
  out->text = main.Text();
  for (const content::TextBlock& block : main.blocks) {
    if (AddBlock(content::NormalizeForHashing(block.text, options_.normalize)) &&
        block.kind == content::TextBlock::Kind::kHeading) {
      emphasized_.push_back(blocks_.back());
    }
  }
  normalized_title_ = content::NormalizeForHashing(out->title, options_.normalize);
  if (!normalized_title_.empty()) emphasized_.push_back(normalized_title_);
}

// MainContent::Text() separates blocks by a blank line, so the paragraphs of
// an extracted text given back to us are exactly its blocks.
void Fingerprinter::AddParagraphs(std::string_view text) {
  size_t begin = 0;
  while (begin < text.size()) {
    size_t next = 0;
    size_t end = ParagraphEnd(text, begin, &next);
    AddBlock(content::NormalizeForHashing(text.substr(begin, end - begin), options_.normalize));
    begin = next;
  }
}

bool Fingerprinter::AddBlock(std::string normalized) {
  if (normalized.empty()) return false;
  if (!normalized_.empty()) normalized_.push_back(' ');
  normalized_ += normalized;
  blocks_.push_back(std::move(normalized));
  return true;
}

}  // namespace pagesieve::fingerprint
