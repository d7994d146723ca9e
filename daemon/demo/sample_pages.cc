// The sample sites' templates: the chrome around an article, with the parts
// that change on every fetch.
#include "demo/sample_pages.h"

#include <cstdio>

namespace pagesieve::demo {
namespace {

std::string Escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Hex(uint64_t value, int digits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%0*llx", digits, static_cast<unsigned long long>(value));
  return std::string(buf).substr(0, static_cast<size_t>(digits));
}

// The article itself: identical markup in every edition, so every edition
// extracts to the same main text.
std::string ArticleMarkup(const Article& article) {
  std::string html = "<article class=\"story\">\n<h1>" + Escape(article.headline) +
                     "</h1>\n<p class=\"byline\">" + Escape(article.byline) + "</p>\n";
  for (const std::string& p : article.paragraphs) html += "<p>" + Escape(p) + "</p>\n";
  return html + "</article>\n";
}

std::string Head(const Site& site, const Article* article, const std::string& extra = "") {
  const std::string title = article ? article->headline + " | " + site.name : site.name;
  return "<!DOCTYPE html>\n<html lang=\"en-GB\"" + extra +
         ">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>" +
         Escape(title) +
         "</title>\n<link rel=\"stylesheet\" href=\"/static/site.css\">\n"
         "</head>\n";
}

std::string Navigation(const Site& site, SampleRng& noise) {
  static const std::vector<std::string> kSections = {
      "News", "Sport", "Business", "Opinion", "Culture", "Weather", "Jobs", "Obituaries"};
  // Some sites put a session id in every link: bytes that change per fetch.
  const std::string sid = site.layout == 1 ? "?sid=" + Hex(noise.Next(), 12) : "";
  std::string nav = "<nav class=\"sections\"><ul>";
  for (const std::string& s : kSections) {
    nav += "<li><a href=\"/" + s + sid + "\">" + s + "</a></li>";
  }
  return nav + "</ul></nav>\n";
}

std::string MostRead(const Site& site, SampleRng& noise) {
  std::string box = "<aside class=\"most-read\"><h3>Most read</h3><ol>";
  for (int i = 0; i < 5; ++i) {
    box += "<li><a href=\"/story/" + std::to_string(noise.Between(100000, 999999)) + "\">" +
           Escape(TeaserHeadline(noise, site.town)) + "</a></li>";
  }
  return box + "</ol><p class=\"readers\">" + std::to_string(noise.Between(40, 4000)) +
         " people are reading now</p></aside>\n";
}

std::string Advert(SampleRng& noise) {
  return "<div class=\"ad-slot\" id=\"ad-" + std::to_string(noise.Between(1, 999)) +
         "\"><a href=\"https://ads.example/click?id=" + Hex(noise.Next(), 16) +
         "\">Winter sale: up to " + std::to_string(noise.Between(10, 70)) +
         "% off selected items</a></div>\n";
}

std::string Footer(const Site& site) {
  return "<footer><p>&copy; 2026 " + Escape(site.name) +
         ". All rights reserved.</p><ul><li><a href=\"/about\">About us</a></li>"
         "<li><a href=\"/contact\">Contact</a></li><li><a href=\"/privacy\">Privacy</a></li>"
         "</ul></footer>\n";
}

std::string CookieBanner(SampleRng& noise) {
  return "<div id=\"cookie-consent\" class=\"cookie-banner\">We use cookies to improve your "
         "experience. <a href=\"/privacy?v=" +
         std::to_string(noise.Between(1, 99)) + "\">Settings</a></div>\n";
}

std::string Desktop(const Site& site, const Article& article, const std::string& clock_time,
                    SampleRng& noise) {
  const std::string masthead = "<header><div class=\"logo\"><a href=\"/\">" + Escape(site.name) +
                               "</a></div><p class=\"edition\">Updated " + clock_time + "</p>\n" +
                               Navigation(site, noise) + "</header>\n";
  std::string body;
  switch (site.layout) {
    case 0:
      body = masthead + "<main>\n" + ArticleMarkup(article) + MostRead(site, noise) +
             Advert(noise) + "</main>\n";
      break;
    case 1:
      body = "<div id=\"page\">" + masthead + "<div class=\"col-main\">\n" +
             ArticleMarkup(article) + "</div>\n<div class=\"col-right\">" + Advert(noise) +
             MostRead(site, noise) + "</div></div>\n";
      break;
    default:
      body = masthead + Advert(noise) + "<div class=\"wrapper\"><div class=\"content\">\n" +
             ArticleMarkup(article) + "</div>" + MostRead(site, noise) + "</div>\n";
      break;
  }
  return Head(site, &article) + "<body>\n" + CookieBanner(noise) + body + Footer(site) +
         "</body>\n</html>\n";
}

}  // namespace

const std::vector<Site>& SampleSites() {
  static const std::vector<Site> kSites = {
      {"Harbour Gazette", "harbour-gazette.example", "Porthaven", 0},
      {"Northbridge Herald", "northbridge-herald.example", "Northbridge", 1},
      {"The Vale Courier", "vale-courier.example", "Ashcombe", 2},
      {"Kestrel Bay News", "kestrelbay-news.example", "Kestrel Bay", 0},
      {"Millford Echo", "millford-echo.example", "Millford", 1},
      {"Upper Dene Observer", "dene-observer.example", "Upper Dene", 2},
      {"Saltmarsh Post", "saltmarsh-post.example", "Saltmarsh", 0},
      {"Eastmoor Chronicle", "eastmoor-chronicle.example", "Eastmoor", 1},
  };
  return kSites;
}

std::string EditionHost(const Site& site, Edition edition) {
  switch (edition) {
    case Edition::kMobile:
      return "m." + site.domain;
    case Edition::kAmp:
      return "amp." + site.domain;
    case Edition::kDesktop:
      break;
  }
  return "www." + site.domain;
}

std::string RenderArticlePage(const Site& site, const Article& article, Edition edition,
                              const std::string& clock_time, SampleRng& noise) {
  switch (edition) {
    case Edition::kMobile:
      return Head(site, &article) +
             "<body class=\"mobile\">\n<div class=\"m-header\"><a href=\"/\">" + Escape(site.name) +
             "</a> <a href=\"/menu\">Menu</a></div>\n" + ArticleMarkup(article) + Advert(noise) +
             "<div class=\"m-footer\"><a href=\"https://" + EditionHost(site, Edition::kDesktop) +
             "/\">Desktop site</a></div>\n</body>\n</html>\n";
    case Edition::kAmp:
      return Head(site, &article, " amp") + "<body>\n<header class=\"amp-header\">" +
             Escape(site.name) + "</header>\n" + ArticleMarkup(article) +
             "<amp-ad width=\"300\" height=\"250\" data-slot=\"/" +
             std::to_string(noise.Between(1000, 9999)) + "/news\"></amp-ad>\n</body>\n</html>\n";
    case Edition::kDesktop:
      break;
  }
  return Desktop(site, article, clock_time, noise);
}

std::string RenderErrorPage(const Site& site, int status) {
  const std::string what = status == 404 ? "Page not found" : "Service temporarily unavailable";
  return Head(site, nullptr) + "<body>\n<header><a href=\"/\">" + Escape(site.name) +
         "</a></header>\n<main><h1>" + what +
         "</h1><p>Sorry, we could not show this page. "
         "Try the <a href=\"/\">front page</a>.</p></main>\n" +
         Footer(site) + "</body>\n</html>\n";
}

}  // namespace pagesieve::demo
