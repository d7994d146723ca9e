#pragma once

// The annotated extraction datasets in ../shared/data/extraction, loaded for
// the content benchmarks and the extraction scorer.

#include <string>
#include <vector>

#include "common/status_or.h"

namespace pagesieve::content::bench {

// One page of either dataset. `html` is the raw (undecoded) body.
struct Page {
  std::string name;
  std::string html;
  // trafilatura-eval: snippets that must / must not be in the main text.
  std::vector<std::string> with;
  std::vector<std::string> without;
  // readability-testpages: the expected article HTML and title.
  std::string expected_html;
  std::string expected_title;
};

// The data directory beside the repository (../shared/data/extraction).
std::string DefaultDataDir();

StatusOr<std::string> ReadGzipFile(const std::string& path);

// trafilatura-eval: evaldata.json maps url → {file, with, without}; the page
// is <dir>/eval/<file>.gz or <dir>/cache/<file>.gz.
StatusOr<std::vector<Page>> LoadTrafilaturaEval(const std::string& dir);

// readability-testpages: <dir>/pages/<name>/{source.html.gz, expected.html.gz,
// expected-metadata.json}.
StatusOr<std::vector<Page>> LoadReadabilityPages(const std::string& dir);

}  // namespace pagesieve::content::bench
