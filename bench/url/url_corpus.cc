#include "url_corpus.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string_view>

namespace pagesieve::url::bench {
namespace {

const std::string kData = PAGESIEVE_SOURCE_DIR "/../shared/data/";

void ReadEvalUrls(std::vector<std::string>* urls) {
  std::ifstream in(kData + "extraction/trafilatura-eval/evaldata.json");
  const nlohmann::json data = nlohmann::json::parse(in, nullptr, false);
  if (!data.is_object()) return;
  for (const auto& [url, annotation] : data.items()) urls->push_back(url);
}

void ReadSuiteUrls(const std::string& file, std::vector<std::string>* urls) {
  std::ifstream in(kData + "url-canon/" + file);
  const nlohmann::json data = nlohmann::json::parse(in, nullptr, false);
  if (!data.is_object()) return;
  for (const nlohmann::json& test_case : data["cases"]) {
    if (test_case["input"].is_string()) urls->push_back(test_case["input"].get<std::string>());
  }
}

struct Parts {
  std::string scheme, host, path, query;
};

Parts Split(std::string_view url) {
  Parts parts;
  const size_t colon = url.find("://");
  if (colon == std::string_view::npos) return parts;
  parts.scheme = url.substr(0, colon);
  std::string_view rest = url.substr(colon + 3);
  rest = rest.substr(0, rest.find('#'));
  const size_t slash = rest.find_first_of("/?");
  parts.host = rest.substr(0, slash);
  if (slash == std::string_view::npos) return parts;
  rest = rest.substr(slash);
  const size_t question = rest.find('?');
  parts.path = rest.substr(0, question);
  if (question != std::string_view::npos) parts.query = rest.substr(question + 1);
  return parts;
}

const char* const kTracking[] = {"utm_source=newsletter",    "utm_medium=email",
                                 "utm_campaign=spring_sale", "gclid=EAIaIQobChMI8ZyW",
                                 "fbclid=IwAR3x9Kd2_abc",    "mc_cid=5f1e2d",
                                 "_ga=2.1234.5678"};
const char* const kParams[] = {"id=42",     "page=2",   "lang=de",   "q=caf%c3%a9+au+lait",
                               "sort=desc", "ref=home", "p=%7Euser", "s=a%20b"};
const char* const kIdnHosts[] = {"bücher.de", "www.пример.рф", "例え.jp", "xn--bcher-kva.ch",
                                 "straße.de"};

std::string MixCase(std::string text, std::mt19937& random) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z' && random() % 3 == 0) c = static_cast<char>(c - 32);
  }
  return text;
}

std::string Variant(const Parts& base, std::mt19937& random, bool* idn) {
  Parts p = base;
  *idn = false;
  const uint32_t r = random();
  if (r % 4 == 0) p.scheme = MixCase(p.scheme, random);
  if (r % 3 == 0) p.host = MixCase(p.host, random);
  if (r % 50 == 0) {
    // 500 distinct IDN hosts, more than the canonicalizer's per-thread
    // cache of 256 holds, so that the figure includes libidn2 misses.
    p.host =
        "shop" + std::to_string(random() % 100) + "." + kIdnHosts[random() % std::size(kIdnHosts)];
    *idn = true;
  }
  if (r % 40 == 1) p.host = "0x7f.0.0.1";
  if (r % 7 == 0) p.host += (p.scheme.size() == 5 ? ":443" : ":80");
  if (r % 9 == 0) p.host = "user@" + p.host;
  if (r % 6 == 0) p.path = "/a/./b/.." + p.path;
  if (r % 11 == 0) p.path += ";jsessionid=0A1B2C3D4E5F";
  if (r % 8 == 0) p.path = "/%7euser" + p.path;
  if (r % 13 == 0 && !p.path.empty()) p.path += "//";
  if (r % 2 == 0) {
    const int extra = 1 + static_cast<int>(random() % 3);
    for (int i = 0; i < extra; ++i) {
      if (!p.query.empty()) p.query += '&';
      p.query += kParams[random() % std::size(kParams)];
    }
  }
  if (r % 3 != 0) {
    const int extra = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < extra; ++i) {
      if (!p.query.empty()) p.query += '&';
      p.query += kTracking[random() % std::size(kTracking)];
    }
  }
  std::string url = p.scheme + "://" + p.host + p.path;
  if (!p.query.empty()) url += "?" + p.query;
  if (r % 5 == 0) url += "#section-2";
  return url;
}

}  // namespace

std::vector<std::string> BuildCorpus(int variants, uint32_t seed, CorpusStats* stats) {
  std::vector<std::string> base;
  ReadEvalUrls(&base);
  ReadSuiteUrls("nutch_basic_url_normalizer.json", &base);
  ReadSuiteUrls("w3lib_canonicalize_url.json", &base);
  std::vector<std::string> corpus = base;
  *stats = CorpusStats{};
  stats->base = base.size();
  std::mt19937 random(seed);
  for (int v = 0; v < variants; ++v) {
    for (const std::string& url : base) {
      const Parts parts = Split(url);
      if (parts.host.empty()) continue;
      bool idn = false;
      corpus.push_back(Variant(parts, random, &idn));
      if (idn) ++stats->idn;
    }
  }
  std::shuffle(corpus.begin(), corpus.end(), random);
  for (const std::string& url : corpus) stats->bytes += url.size();
  return corpus;
}

}  // namespace pagesieve::url::bench
