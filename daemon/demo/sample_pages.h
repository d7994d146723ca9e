#pragma once

#include <string>
#include <vector>

#include "demo/sample_rng.h"
#include "demo/sample_text.h"

namespace pagesieve::demo {

// A synthetic news site of the sample crawl. Hosts are under .example
// (RFC 2606), so no real site is named. Its mirrors (m., amp.) are hosts of
// the same registered domain, hence the same dedup scope.
struct Site {
  std::string name;    // "Harbour Gazette"
  std::string domain;  // "harbour-gazette.example"
  std::string town;
  int layout = 0;  // which desktop template (0..2)
};

// The sites of the sample, in a fixed order.
const std::vector<Site>& SampleSites();

// Where a page is served from: the desktop site and its mirrors, each with a
// template of its own around the same article markup.
enum class Edition { kDesktop, kMobile, kAmp };

std::string EditionHost(const Site& site, Edition edition);

// The page of `article` in `edition`. Everything outside the article (the
// "updated" clock, most-read teasers, ads, cookie banner, session ids in
// links) is drawn from `noise`, so two fetches of one page differ in their
// bytes but not in their main text.
std::string RenderArticlePage(const Site& site, const Article& article, Edition edition,
                              const std::string& clock_time, SampleRng& noise);

// The body of an error page (404, 503) in the site's template.
std::string RenderErrorPage(const Site& site, int status);

}  // namespace pagesieve::demo
