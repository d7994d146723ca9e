// The sample crawl: clusters of one article and what a crawler meets of it
// again, labelled with the verdict a correct deduplicator gives.
//
// Variants, after the original (unique) at time P on the desktop site:
//   url_variant   P+5..60 min   same page, URL with tracking params, session
//                               id, host case, default port or fragment: url
//   mirror        P+1..3 h      same article on m. or amp. (other template): exact
//   refetch       P+3..5 h      same URL fetched again (ads, clock rotated): url
//   error_status  P+5..6 h      same URL answering 404 or 503: skipped
//   correction    P+6..8 h      same URL, a correction line appended: near
//   edit          P+6..8 h      the print URL, one word changed: near
//   follow_up     P+8..12 h     new article quoting the first paragraph: unique
//   changed_page  P+12..14 h    same URL now serving a different article: unique
//   bad_event     P+0..14 h     fetched_at unreadable: dead letter
// Events sharing the original's URL are ordered so that the URL's stored
// content is the original's whenever a url-tier duplicate arrives.
#include "demo/sample_crawl.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "demo/sample_pages.h"
#include "demo/sample_rng.h"
#include "demo/sample_text.h"

namespace pagesieve::demo {
namespace {

constexpr int64_t kMinute = 60'000;
constexpr int64_t kRound = 40 * kMinute;  // between two articles of a site
// 2026-10-05T06:00:00Z: fixed, so a seed always gives the same bytes, and in
// the past, so event.max_future never rejects the sample.
constexpr int64_t kStartMs = 1'791'180'000'000;

// An event before ids are given: `of` points at another draft.
struct Draft {
  int64_t time_ms = 0;
  size_t seq = 0;  // creation order: breaks ties in time
  const Site* site = nullptr;
  std::string url;
  int status = 200;
  std::string body;
  std::string fetched_at;  // empty: formatted from time_ms
  Expected expected = Expected::kUnique;
  long of = -1;
  std::string variant;
};

std::string Rfc3339(int64_t ms) {
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string ClockTime(int64_t ms) { return Rfc3339(ms).substr(11, 5); }

std::string LongDate(int64_t ms) {
  static const char* const kMonths[] = {"January",   "February", "March",    "April",
                                        "May",       "June",     "July",     "August",
                                        "September", "October",  "November", "December"};
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return std::to_string(tm.tm_mday) + " " + kMonths[tm.tm_mon] + " " +
         std::to_string(tm.tm_year + 1900);
}

std::string ArticlePath(const Article& article, int64_t published_ms) {
  return "/news/" + Rfc3339(published_ms).substr(0, 10).replace(4, 1, "/").replace(7, 1, "/") +
         "/" + article.slug;
}

// The same page under a URL the canonicalizer folds back into the original.
std::string UrlVariant(const std::string& host, const std::string& path, SampleRng& rng) {
  static const std::vector<std::string> kTracking = {
      "utm_source=newsletter", "utm_medium=email", "utm_campaign=autumn", "fbclid=IwAR3xk2",
      "gclid=EAIaIQobChMI",    "mc_cid=9f2a41",    "_ga=2.1187.4410"};
  std::string upper = host;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::string url =
      "https://" + (rng.Percent(30) ? upper : host) + (rng.Percent(20) ? ":443" : "") + path;
  if (rng.Percent(25)) url += ";jsessionid=" + std::to_string(rng.Next() % 100000000);
  const size_t first = rng.Below(kTracking.size());
  url += "?" + kTracking[first];
  if (rng.Percent(50))
    url += "&" + kTracking[(first + 1 + rng.Below(kTracking.size() - 1)) % kTracking.size()];
  if (rng.Percent(30)) url += "#comments";
  return url;
}

class ClusterWriter {
 public:
  ClusterWriter(std::vector<Draft>& drafts, SampleRng& rng) : drafts_(drafts), rng_(rng) {}

  void Write(const Site& site, int64_t p) {
    const Article article = WriteArticle(rng_, site.town, LongDate(p));
    const std::string path = ArticlePath(article, p);
    const std::string www = EditionHost(site, Edition::kDesktop);
    const long original = Add(site, p, "https://" + www + path, article, Edition::kDesktop,
                              Expected::kUnique, -1, "original");
    if (rng_.Percent(45)) {
      Add(site, p + rng_.Between(5, 60) * kMinute, UrlVariant(www, path, rng_), article,
          Edition::kDesktop, Expected::kUrl, original, "url_variant");
    }
    if (rng_.Percent(40)) {
      const Edition e = rng_.Percent(65) ? Edition::kMobile : Edition::kAmp;
      Add(site, p + rng_.Between(60, 180) * kMinute, "https://" + EditionHost(site, e) + path,
          article, e, Expected::kExact, original, "mirror");
    }
    if (rng_.Percent(35)) {
      Add(site, p + rng_.Between(180, 300) * kMinute, "https://" + www + path, article,
          Edition::kDesktop, Expected::kUrl, original, "refetch");
    }
    WriteLater(site, p, www, path, article, original);
  }

 private:
  void WriteLater(const Site& site, int64_t p, const std::string& www, const std::string& path,
                  const Article& article, long original) {
    if (rng_.Percent(8)) {
      Draft& d = drafts_[static_cast<size_t>(
          Add(site, p + rng_.Between(300, 360) * kMinute, "https://" + www + path, article,
              Edition::kDesktop, Expected::kSkipped, -1, "error_status"))];
      d.status = rng_.Percent(50) ? 404 : 503;
      d.body = RenderErrorPage(site, d.status);
    }
    if (rng_.Percent(15)) {
      Add(site, p + rng_.Between(360, 480) * kMinute, "https://" + www + path,
          AppendCorrection(article, rng_), Edition::kDesktop, Expected::kNear, original,
          "correction");
    }
    if (rng_.Percent(20)) {
      Add(site, p + rng_.Between(360, 480) * kMinute, "https://" + www + path + "/print",
          EditOneWord(article, rng_), Edition::kDesktop, Expected::kNear, original, "edit");
    }
    if (rng_.Percent(12)) {
      const int64_t t = p + rng_.Between(480, 720) * kMinute;
      const Article follow = FollowUp(article, rng_, site.town, LongDate(t));
      Add(site, t, "https://" + www + ArticlePath(follow, t), follow, Edition::kDesktop,
          Expected::kUnique, -1, "follow_up");
    }
    if (rng_.Percent(8)) {
      const int64_t t = p + rng_.Between(720, 840) * kMinute;
      Add(site, t, "https://" + www + path, WriteArticle(rng_, site.town, LongDate(t)),
          Edition::kDesktop, Expected::kUnique, -1, "changed_page");
    }
    if (rng_.Percent(3)) {
      Draft& d = drafts_[static_cast<size_t>(
          Add(site, p + rng_.Between(0, 840) * kMinute, "https://" + www + path, article,
              Edition::kDesktop, Expected::kDeadLetter, -1, "bad_event"))];
      d.fetched_at = "yesterday afternoon";
    }
  }

  long Add(const Site& site, int64_t t, std::string url, const Article& article, Edition edition,
           Expected expected, long of, std::string variant) {
    Draft d;
    d.time_ms = t;
    d.seq = drafts_.size();
    d.site = &site;
    d.url = std::move(url);
    d.body = RenderArticlePage(site, article, edition, ClockTime(t), rng_);
    d.expected = expected;
    d.of = of;
    d.variant = std::move(variant);
    drafts_.push_back(std::move(d));
    return static_cast<long>(drafts_.size() - 1);
  }

  std::vector<Draft>& drafts_;
  SampleRng& rng_;
};

std::string EventJson(const Draft& d, const SampleEvent& e) {
  nlohmann::ordered_json j;
  j["event_id"] = e.event_id;
  j["url"] = d.url;
  j["fetched_at"] = d.fetched_at.empty() ? Rfc3339(d.time_ms) : d.fetched_at;
  j["status"] = d.status;
  j["content_type"] = "text/html; charset=utf-8";
  j["body"] = d.body;
  j["label"] = {
      {"expect", std::string(ExpectedName(e.label.expected))},
      {"of", e.label.of.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(e.label.of)},
      {"variant", e.label.variant}};
  return j.dump();
}

}  // namespace

std::string_view ExpectedName(Expected expected) {
  switch (expected) {
    case Expected::kUnique:
      return "unique";
    case Expected::kUrl:
      return "url";
    case Expected::kExact:
      return "exact";
    case Expected::kNear:
      return "near";
    case Expected::kSkipped:
      return "skipped";
    case Expected::kDeadLetter:
      return "dead_letter";
  }
  return "unknown";
}

std::vector<SampleEvent> GenerateSampleCrawl(const SampleOptions& options) {
  SampleRng rng(options.seed);
  const auto& sites = SampleSites();
  const size_t wanted = static_cast<size_t>(std::clamp(options.events, 1, kMaxSampleEvents));
  // Rounds of clusters (one per site, 40 minutes apart) until `wanted`
  // events precede the next round: later clusters cannot come before them.
  std::vector<Draft> drafts;
  ClusterWriter writer(drafts, rng);
  for (int64_t round = 0;; ++round) {
    for (size_t s = 0; s < sites.size(); ++s) {
      const int64_t published = kStartMs + round * kRound + static_cast<int64_t>(s) * 3 * kMinute +
                                rng.Between(0, 2) * kMinute;
      writer.Write(sites[s], published);
    }
    const int64_t next_round = kStartMs + (round + 1) * kRound;
    const auto settled = std::count_if(drafts.begin(), drafts.end(),
                                       [&](const Draft& d) { return d.time_ms < next_round; });
    if (static_cast<size_t>(settled) >= wanted) break;
  }
  std::vector<size_t> order(drafts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return drafts[a].time_ms < drafts[b].time_ms; });
  order.resize(wanted);

  std::vector<std::string> ids(drafts.size());
  std::vector<SampleEvent> events;
  events.reserve(wanted);
  for (size_t i = 0; i < order.size(); ++i) {
    char id[32];
    std::snprintf(id, sizeof id, "demo-%05zu", i + 1);
    ids[order[i]] = id;
  }
  for (size_t index : order) {
    const Draft& d = drafts[index];
    SampleEvent e;
    e.event_id = ids[index];
    e.key = d.site->domain;
    e.url = d.url;
    e.fetched_at_ms = d.time_ms;
    e.label = Label{d.expected, d.of >= 0 ? ids[static_cast<size_t>(d.of)] : "", d.variant};
    e.json = EventJson(d, e);
    events.push_back(std::move(e));
  }
  return events;
}

}  // namespace pagesieve::demo
