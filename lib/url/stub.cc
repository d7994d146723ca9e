// Placeholder so that code written against canonicalizer.h and
// registered_domain.h links while the implementation lands; replaced file by
// file.

#include "url/canonicalizer.h"
#include "url/registered_domain.h"

namespace pagesieve::url {

class ParamMatcher {};

std::vector<std::string> DefaultStripParams() { return {}; }

StatusOr<CanonicalizerOptions> CanonicalizerOptionsFromConfig(const Config&) {
  return CanonicalizerOptions{};
}

Canonicalizer::Canonicalizer(CanonicalizerOptions options) : options_(std::move(options)) {}
Canonicalizer::~Canonicalizer() = default;
Canonicalizer::Canonicalizer(Canonicalizer&&) noexcept = default;
Canonicalizer& Canonicalizer::operator=(Canonicalizer&&) noexcept = default;

StatusOr<CanonicalUrl> Canonicalizer::Canonicalize(std::string_view) const {
  return Status::Internal("url canonicalization is not implemented yet");
}

std::string RegisteredDomain(std::string_view ascii_host) { return std::string(ascii_host); }

}  // namespace pagesieve::url
