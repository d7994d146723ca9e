// The public canonicalization suites in ../shared/data/url-canon, run against
// our rules. Each suite follows its own project's rules, so every case where
// ours differ is listed below with what we produce and why; every other case
// must give the suite's expected output. A change of behaviour on any case
// therefore fails here, listed or not.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"

namespace pagesieve::url {
namespace {

using ::pagesieve::url::testing::Canon;

struct Difference {
  std::string_view input;  // to catch a reordered data file
  std::string_view ours;   // our output, or "!error: <reason>"
};
using Differences = std::map<int, Difference>;  // by case index in the file

// Apache Nutch BasicURLNormalizer: never sorts or filters the query, keeps
// Unicode hosts unless configured, keeps other schemes.
const Differences kNutch = {
    // We sort the query.
    {14, {"http://x.com/s?q=a%26b&m=10", "http://x.com/s?m=10&q=a%26b"}},
    {83,
     {"https://john.doe@www.example.com:1234/forum/questions/?tag=networking&order=newest#top",
      "https://www.example.com:1234/forum/questions/?order=newest&tag=networking"}},
    // We always write hosts in punycode; Nutch only with host.idn=toAscii.
    {18, {"http://bücher.de/", "http://xn--bcher-kva.de/"}},
    {28,
     {"https://www.0251-sachverst%c3%a4ndiger.de/",
      "https://www.xn--0251-sachverstndiger-ozb.de/"}},
    // Cases run with host.idn=toUnicode: we never convert to Unicode.
    {93, {"https://xn--90ax2c.xn--p1ai/", "https://xn--90ax2c.xn--p1ai/"}},
    {94, {"https://Xn--90Ax2c.xN--P1ai/", "https://xn--90ax2c.xn--p1ai/"}},
    {102, {"https://xn--strae-oqa.de/", "https://xn--strae-oqa.de/"}},
    {103, {"https://example.xn--9tfky.id/", "https://example.xn--9tfky.id/"}},
    {104, {"https://xN--p1aI.Xn--P1ai/", "https://xn--p1ai.xn--p1ai/"}},
    {105, {"https://xN--p1Ai.%D1%80%d1%84/", "https://xn--p1ai.xn--p1ai/"}},
    {106,
     {"https://булГаков.xN--p1Ai.%D1%80%d1%84/", "https://xn--80abec0bdy9a.xn--p1ai.xn--p1ai/"}},
    {107, {"https://гоГоль.%d1%80%D1%84.Рф/", "https://xn--c1aaykb9f.xn--p1ai.xn--p1ai/"}},
    {109, {"https://example.xn--9tfky.id/", "https://example.xn--9tfky.id/"}},
    {110, {"https://xN--p1aI.Xn--P1ai/", "https://xn--p1ai.xn--p1ai/"}},
    {111, {"https://xN--p1Ai.%D1%80%d1%84/", "https://xn--p1ai.xn--p1ai/"}},
    {112,
     {"https://булГаков.xN--p1Ai.%D1%80%d1%84/", "https://xn--80abec0bdy9a.xn--p1ai.xn--p1ai/"}},
    {113, {"https://гоГоль.%d1%80%D1%84.Рф/", "https://xn--c1aaykb9f.xn--p1ai.xn--p1ai/"}},
    // Run with IDNA2003 (transitional) mapping; we are non-transitional.
    {96, {"https://straße.de/", "https://xn--strae-oqa.de/"}},
    // Nutch percent-encodes [ ] in the query; they are not in our encode set
    // (nor in WHATWG's query set).
    {20, {"http://x.com/?x[y]=1", "http://x.com/?x[y]=1"}},
    // Only http and https.
    {60, {"file:///foo/bar.txt", "!error: unsupported scheme"}},
    {61, {"ftp:/", "!error: unsupported scheme"}},
    {78, {"file:/var/www/html/foo/../bar/index.html", "!error: unsupported scheme"}},
    {79, {"file:/var/www/html/////./bar/index.html", "!error: unsupported scheme"}},
    {80, {"ftp://user@ftp.example.org/path/file.txt", "!error: unsupported scheme"}},
    {81, {"ftp://john.doe@ftp.example.org/", "!error: unsupported scheme"}},
    {82, {"ftp://user:password@ftp.example.org/path/file.txt", "!error: unsupported scheme"}},
    {84,
     {"ftp://user@[2600:1f18:200d:fb00:2b74:867c:ab0c:150a]/../path/file.txt",
      "!error: unsupported scheme"}},
    // Nutch accepts a URL without a host; it is an error for us.
    {62, {"http:", "!error: empty host"}},
    {63, {"http:////", "!error: empty host"}},
    {64, {"http:///////", "!error: empty host"}},
};

// w3lib canonicalize_url (Scrapy): form-encodes the query, keeps ports and
// userinfo, does not resolve dot segments; some cases pass options we lack.
const Differences kW3lib = {
    // query_separator=";": we only split on '&'.
    {5, {"http://www.example.com/do?c=1;b=2;a=3", "http://www.example.com/do?c=1;b=2;a=3"}},
    // keep_blank_values=False: we always keep blank values.
    {9, {"http://www.example.com/do?b=&a=2", "http://www.example.com/do?a=2&b="}},
    {11, {"http://www.example.com/do?b=&c&a=2", "http://www.example.com/do?a=2&b=&c"}},
    // w3lib turns "c" into "c="; a pair without '=' keeps having none here.
    {12, {"http://www.example.com/do?b=&c&a=2", "http://www.example.com/do?a=2&b=&c"}},
    // ... and form-encodes ','; we leave the query's reserved characters alone.
    {13, {"http://www.example.com/do?1750,4", "http://www.example.com/do?1750,4"}},
    // Form encoding writes a space as '+'; we write %20 and keep '+' and %20 apart.
    {14, {"http://www.example.com/do?q=a space&a=1", "http://www.example.com/do?a=1&q=a%20space"}},
    {16,
     {"http://www.example.com/do?q=a%20space&a=1", "http://www.example.com/do?a=1&q=a%20space"}},
    // encoding=latin1/cp1251 for the query: we always encode as UTF-8.
    {19,
     {"http://www.example.com/résumé?q=résumé",
      "http://www.example.com/r%C3%A9sum%C3%A9?q=r%C3%A9sum%C3%A9"}},
    {20,
     {"http://www.example.com/résumé?country=Россия",
      "http://www.example.com/r%C3%A9sum%C3%A9?country=%D0%A0%D0%BE%D1%81%D1%81%D0%B8%D1%8F"}},
    // w3lib encodes ( ) in the query; we keep them.
    {35,
     {"http://www.example.com/do?price(£)=500&a=1",
      "http://www.example.com/do?a=1&price(%C2%A3)=500"}},
    // We drop userinfo.
    {36, {"http://user:pass@www.example.com:81/do?now=1", "http://www.example.com:81/do?now=1"}},
    {37, {"http://user:pass@www.example.com/do?a=1#frag", "http://www.example.com/do?a=1"}},
    {52, {"http://user@例え.jp/path", "http://xn--r8jz45g.jp/path"}},
    {53, {"http://user:pass@例え.jp:8080/p", "http://xn--r8jz45g.jp:8080/p"}},
    // keep_fragments=True: we always drop the fragment.
    {38, {"http://user:pass@www.example.com/do?a=1#frag", "http://www.example.com/do?a=1"}},
    {40, {"http://[::1]/do?a=1#frag", "http://[::1]/do?a=1"}},
    {71,
     {"http://www.example.com/path/to/%23/foo/bar#frag",
      "http://www.example.com/path/to/%23/foo/bar"}},
    {74,
     {"http://www.example.com/path/to/%23/foo/bar?url=http%3A%2F%2Fwww.example.com%2F%2Fpath%2Fto%"
      "2F%23%2Fbar%2Ffoo#frag",
      "http://www.example.com/path/to/%23/foo/bar?url=http%3A%2F%2Fwww.example.com%2F%2Fpath%2Fto%"
      "2F%23%2Fbar%2Ffoo"}},
    // Relative references and other schemes are errors.
    {41, {"a#frag", "!error: missing scheme"}},
    {42, {"a#frag", "!error: missing scheme"}},
    {43, {"a?b=1#frag", "!error: missing scheme"}},
    {44, {"?b=1", "!error: missing scheme"}},
    {48, {"sftp://UsEr:PaSsWoRd@www.EXAMPLE.com/", "!error: unsupported scheme"}},
    // Raw latin1 bytes (the case decodes them as latin1 first): we escape the
    // bytes as they are.
    {62,
     {"http://www.example.com/r\xe9sum\xe9?q=r\xe9sum\xe9",
      "http://www.example.com/r%E9sum%E9?q=r%E9sum%E9"}},
    // Python's IDNA codec fails on these and w3lib keeps the Unicode host; UTS-46
    // converts the first (empty leading label allowed) and rejects the second
    // (a label over 63 bytes).
    {68,
     {"http://.éxamplé.com/résumé?q=résumé",
      "http://.xn--xampl-9raf.com/r%C3%A9sum%C3%A9?q=r%C3%A9sum%C3%A9"}},
    {80,
     {"http://"
      "www.éxamplééxamplééxamplééxamplééxamplééxamplééxamplééxamplééxamplééxamplééxamplé.com/"
      "résumé?q=résumé",
      "!error: invalid internationalized host (punycode encoded data will be too large)"}},
    // w3lib decodes %2C (',' is in its safe set); we keep escapes of reserved
    // characters, only uppercased.
    {81, {"https://example.com/a%23b%2cc#bash", "https://example.com/a%23b%2Cc"}},
};

// Google Safe Browsing: a lossy lookup form that unescapes repeatedly, drops
// every port, guesses a missing scheme and keeps the query verbatim.
const Differences kSafeBrowsing = {
    // We unescape once, so "%2525" stays an escaped '%' followed by "25".
    {0, {"http://host/%25%32%35", "http://host/%2525"}},
    {1, {"http://host/%25%32%35%25%32%35", "http://host/%2525%2525"}},
    {2, {"http://host/%2525252525252525", "http://host/%2525252525252525"}},
    {3, {"http://host/asdf%25%32%35asd", "http://host/asdf%2525asd"}},
    {4, {"http://host/%%%25%32%35asd%%", "http://host/%25%25%2525asd%25%25"}},
    // Hosts with '#', controls or spaces are errors, not escaped.
    {8,
     {"http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%"
      "252B",
      "!error: forbidden character in host"}},
    {23, {"http://\x01\x80.com/", "!error: forbidden character in host"}},
    {27, {"http:// leadingspace.com/", "!error: forbidden character in host"}},
    {28, {"http://%20leadingspace.com/", "!error: forbidden character in host"}},
    // We do not guess a scheme.
    {11, {"www.google.com/", "!error: missing scheme"}},
    {12, {"www.google.com", "!error: missing scheme"}},
    {29, {"%20leadingspace.com/", "!error: missing scheme"}},
    // An empty query is dropped.
    {17, {"http://www.google.com/q?", "http://www.google.com/q"}},
    // Only default ports are dropped.
    {25, {"http://www.gotaport.com:1234/", "http://www.gotaport.com:1234/"}},
    // We keep escapes of reserved characters in the query, and sort it.
    {33,
     {"http://host.com/path?query%3Awith%3Acolons", "http://host.com/path?query%3Awith%3Acolons"}},
    {34,
     {"https://wiki.mozilla.org/index.php?title=MozillaWiki%3AHelp&action=history",
      "https://wiki.mozilla.org/index.php?action=history&title=MozillaWiki%3AHelp"}},
};

std::string Base64Decode(std::string_view in) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  for (char c : in) {
    const size_t value = kAlphabet.find(c);
    if (value == std::string_view::npos) break;  // '=' padding
    bits = (bits << 6) | static_cast<uint32_t>(value);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  return out;
}

nlohmann::json LoadSuite(const std::string& name) {
  std::ifstream in(std::string(PAGESIEVE_SOURCE_DIR "/../shared/data/url-canon/") + name);
  if (!in) return nullptr;
  return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

std::string InputOf(const nlohmann::json& test_case) {
  const nlohmann::json& input = test_case["input"];
  if (input.is_string()) return input.get<std::string>();
  return Base64Decode(input["bytes_b64"].get<std::string>());
}

void RunSuite(const std::string& name, const Differences& differences) {
  const nlohmann::json suite = LoadSuite(name);
  ASSERT_TRUE(suite.is_object()) << "cannot read " << name;
  const nlohmann::json& cases = suite["cases"];
  ASSERT_FALSE(cases.empty());
  const Canonicalizer canonicalizer({});
  int index = 0;
  for (const nlohmann::json& test_case : cases) {
    const std::string input = InputOf(test_case);
    const std::string ours = Canon(canonicalizer, input);
    SCOPED_TRACE(name + " case " + std::to_string(index) + ": " + input);
    if (auto it = differences.find(index); it != differences.end()) {
      EXPECT_EQ(input, it->second.input) << "the data file changed";
      EXPECT_EQ(ours, it->second.ours);
    } else if (test_case["expected"].is_null()) {
      EXPECT_EQ(ours.rfind("!error: ", 0), 0u) << "must fail, gave " << ours;
    } else {
      EXPECT_EQ(ours, test_case["expected"].get<std::string>());
    }
    ++index;
  }
  for (const auto& [listed, difference] : differences) {
    EXPECT_LT(listed, index) << "listed case " << listed << " is not in " << name;
  }
}

TEST(SuitesTest, Nutch) { RunSuite("nutch_basic_url_normalizer.json", kNutch); }

TEST(SuitesTest, W3lib) { RunSuite("w3lib_canonicalize_url.json", kW3lib); }

TEST(SuitesTest, SafeBrowsing) { RunSuite("safebrowsing_google_doc.json", kSafeBrowsing); }

}  // namespace
}  // namespace pagesieve::url
