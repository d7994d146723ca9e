// Temporary placeholders so that code written against content.h links while
// the real implementation lands. Removed piece by piece.

#include "content/content.h"

namespace pagesieve::content {

ContentKind ClassifyContent(std::string_view, std::string_view) { return ContentKind::kHtml; }
std::string DecodeToUtf8(std::string_view body, std::string_view) { return std::string(body); }

std::string MainContent::Text() const {
  std::string out;
  for (const TextBlock& b : blocks) {
    if (!out.empty()) out += "\n\n";
    out += b.text;
  }
  return out;
}

struct Extractor::Impl {
  ExtractionOptions options;
};
Extractor::Extractor(ExtractionOptions options)
    : impl_(std::make_unique<Impl>(Impl{options})) {}
Extractor::~Extractor() = default;
Extractor::Extractor(Extractor&&) noexcept = default;
Extractor& Extractor::operator=(Extractor&&) noexcept = default;
MainContent Extractor::Extract(std::string_view) { return {}; }

std::string NormalizeForHashing(std::string_view text, const NormalizeOptions&) {
  return std::string(text);
}

}  // namespace pagesieve::content
