// Randomized robustness: seeded generation and mutation of URLs. For every
// input the canonicalizer must not crash or hang, must fail only with
// InvalidArgument, and on success must return a URL that is canonical by an
// independent check and that canonicalizes to itself.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "url/canonicalizer.h"
#include "url/param_matcher.h"

namespace pagesieve::url {
namespace {

bool IsHexUpper(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }
bool IsUnreservedByte(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

// Checks escapes and the bytes allowed in a normalized path or query; returns
// a description of the first problem, or "".
std::string CheckEncoding(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c <= 0x20 || c >= 0x7f ||
        std::string_view("\"<>`{}|^#").find(c) != std::string_view::npos) {
      return "unencoded byte " + std::to_string(c);
    }
    if (c != '%') continue;
    if (i + 2 >= text.size()) return "short escape";
    if (!IsHexUpper(text[i + 1]) || !IsHexUpper(text[i + 2])) return "bad escape";
    const int value = std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16);
    if (IsUnreservedByte(value)) return "escaped unreserved byte";
  }
  return "";
}

std::string CheckPath(std::string_view path) {
  if (path.empty() || path[0] != '/') return "path does not start with '/'";
  if (path.find("//") != std::string_view::npos) return "empty segment";
  if (path.find('?') != std::string_view::npos || path.find('\\') != std::string_view::npos) {
    return "'?' or '\\' in path";
  }
  size_t start = 1;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view segment = path.substr(start, end - start);
    if (segment == "." || segment == "..") return "dot segment";
    start = end + 1;
  }
  return CheckEncoding(path);
}

std::string CheckQuery(std::string_view query, const ParamMatcher& denylist) {
  if (query.empty()) return "";
  std::string_view previous_name;
  size_t start = 0;
  while (start <= query.size()) {
    size_t end = query.find('&', start);
    if (end == std::string_view::npos) end = query.size();
    const std::string_view pair = query.substr(start, end - start);
    if (pair.empty()) return "empty pair";
    const std::string_view name = pair.substr(0, pair.find('='));
    if (denylist.Matches(name)) return "denylisted name kept";
    if (name < previous_name) return "pairs not sorted";
    previous_name = name;
    start = end + 1;
  }
  return CheckEncoding(query);
}

std::string CheckCanonical(const CanonicalUrl& url, const ParamMatcher& denylist) {
  const std::string& spec = url.spec;
  if (spec.rfind("http://", 0) != 0 && spec.rfind("https://", 0) != 0) return "bad scheme";
  if (spec.find('#') != std::string::npos) return "fragment kept";
  const std::string_view host = url.host();
  if (host.empty()) return "empty host";
  for (char c : host) {
    if ((c >= 'A' && c <= 'Z') || static_cast<unsigned char>(c) >= 0x80 || c == '%' || c == '/' ||
        c == '@' || static_cast<unsigned char>(c) <= 0x20) {
      return "bad host byte";
    }
  }
  if (host.back() == '.') return "trailing dot";
  const std::string_view authority = std::string_view(spec).substr(
      url.scheme().size() + 3, url.path_begin - url.scheme().size() - 3);
  if ((url.scheme() == "http" && authority.ends_with(":80")) ||
      (url.scheme() == "https" && authority.ends_with(":443")) || authority.ends_with(":")) {
    return "default or empty port kept";
  }
  if (std::string problem = CheckPath(url.path()); !problem.empty()) return problem;
  return CheckQuery(url.query(), denylist);
}

// Pieces that exercise every rule, glued at random.
const std::vector<std::string>& Pieces() {
  static const std::vector<std::string> pieces = {"http://",
                                                  "HTTPS://",
                                                  "http:",
                                                  "ftp://",
                                                  "/",
                                                  "//",
                                                  "\\",
                                                  ".",
                                                  "..",
                                                  "%2e",
                                                  "%2E%2e",
                                                  "?",
                                                  "&",
                                                  "&&",
                                                  "=",
                                                  "#",
                                                  "@",
                                                  ":",
                                                  ":80",
                                                  ":443",
                                                  ":0080",
                                                  ":65536",
                                                  "[",
                                                  "]",
                                                  "[::1]",
                                                  "[1:2::3]",
                                                  "::ffff:1.2.3.4",
                                                  "%",
                                                  "%4",
                                                  "%41",
                                                  "%7e",
                                                  "%2f",
                                                  "%25",
                                                  "%zz",
                                                  "%00",
                                                  "%c3%a9",
                                                  "%FE",
                                                  "é",
                                                  "ü",
                                                  "ß",
                                                  "例",
                                                  "。",
                                                  "．",
                                                  "\xc3",
                                                  "\xff",
                                                  "xn--",
                                                  "xn--bcher-kva",
                                                  "Xn--zz",
                                                  "www.",
                                                  "WWW.",
                                                  "0x",
                                                  "0x7f",
                                                  "017",
                                                  "1",
                                                  "255",
                                                  "256",
                                                  "4294967295",
                                                  "example",
                                                  ".com",
                                                  "com.",
                                                  "utm_source",
                                                  "UTM_x",
                                                  "gclid",
                                                  "jsessionid",
                                                  ";jsessionid=1",
                                                  ";",
                                                  ";x=1",
                                                  "a",
                                                  "B",
                                                  " ",
                                                  "\t",
                                                  "\n",
                                                  "\x01",
                                                  "\x7f",
                                                  "\"",
                                                  "<",
                                                  "{",
                                                  "|",
                                                  "^",
                                                  "`",
                                                  "+",
                                                  "%20",
                                                  "index.html",
                                                  "Default.aspx",
                                                  "-",
                                                  "_",
                                                  "~",
                                                  "!",
                                                  "$",
                                                  "*",
                                                  "r3---sn"};
  return pieces;
}

std::string Generate(std::mt19937& random) {
  const auto& pieces = Pieces();
  std::string url = (random() % 4 == 0) ? "" : (random() % 2 ? "http://" : "https://");
  const int count = static_cast<int>(random() % 16);
  for (int i = 0; i < count; ++i) url += pieces[random() % pieces.size()];
  return url;
}

std::string Mutate(std::string url, std::mt19937& random) {
  const int edits = 1 + static_cast<int>(random() % 4);
  for (int i = 0; i < edits; ++i) {
    const size_t at = url.empty() ? 0 : random() % (url.size() + 1);
    switch (random() % 3) {
      case 0:
        url.insert(at, Pieces()[random() % Pieces().size()]);
        break;
      case 1:
        if (at < url.size()) url.erase(at, 1 + random() % 3);
        break;
      default:
        if (at < url.size()) url[at] = static_cast<char>(random() % 256);
        break;
    }
  }
  return url;
}

void CheckOne(const Canonicalizer& canonicalizer, const ParamMatcher& denylist,
              const std::string& raw, int* accepted) {
  StatusOr<CanonicalUrl> url = canonicalizer.Canonicalize(raw);
  if (!url.ok()) {
    ASSERT_EQ(url.status().code(), StatusCode::kInvalidArgument) << raw;
    ASSERT_FALSE(url.status().message().empty());
    return;
  }
  ++*accepted;
  ASSERT_EQ(CheckCanonical(*url, denylist), "") << raw << " -> " << url->spec;
  StatusOr<CanonicalUrl> again = canonicalizer.Canonicalize(url->spec);
  ASSERT_TRUE(again.ok()) << raw << " -> " << url->spec << " -> " << again.status().ToString();
  ASSERT_EQ(again->spec, url->spec) << raw;
  ASSERT_EQ(again->host(), url->host()) << raw;
}

CanonicalizerOptions AllOptions() {
  CanonicalizerOptions options;
  options.strip_www = options.strip_index = options.strip_trailing_slash = true;
  options.fold_scheme = true;
  return options;
}

TEST(FuzzTest, GeneratedUrlsWithDefaultOptions) {
  const Canonicalizer canonicalizer({});
  const ParamMatcher denylist(canonicalizer.options().strip_params);
  std::mt19937 random(20240601);
  int accepted = 0;
  for (int i = 0; i < 30000 && !HasFatalFailure(); ++i) {
    CheckOne(canonicalizer, denylist, Generate(random), &accepted);
  }
  EXPECT_GT(accepted, 3000);  // the generator must reach the success path often
}

TEST(FuzzTest, GeneratedUrlsWithEveryOption) {
  const Canonicalizer canonicalizer(AllOptions());
  const ParamMatcher denylist(canonicalizer.options().strip_params);
  std::mt19937 random(99);
  int accepted = 0;
  for (int i = 0; i < 20000 && !HasFatalFailure(); ++i) {
    CheckOne(canonicalizer, denylist, Generate(random), &accepted);
  }
  EXPECT_GT(accepted, 2000);
}

TEST(FuzzTest, MutatedRealisticUrls) {
  const std::vector<std::string> seeds = {
      "https://www.example.com/a/b/../c/./d.html?utm_source=x&b=2&a=1#top",
      "http://user:pw@Bücher.DE:8080/%7Epath;jsessionid=AB?q=caf%c3%a9&q=+x",
      "http://0x7f.0.0.1/index.html", "http://[2001:db8::1]:443/a//b/",
      "https://xn--strae-oqa.de/straße?x=%zz&&y"};
  for (const CanonicalizerOptions& options : {CanonicalizerOptions{}, AllOptions()}) {
    const Canonicalizer canonicalizer(options);
    const ParamMatcher denylist(options.strip_params);
    std::mt19937 random(7);
    int accepted = 0;
    for (int i = 0; i < 15000 && !HasFatalFailure(); ++i) {
      CheckOne(canonicalizer, denylist, Mutate(seeds[i % seeds.size()], random), &accepted);
    }
    EXPECT_GT(accepted, 4000);
  }
}

TEST(FuzzTest, HostileInputsOfMaximumLength) {
  const Canonicalizer canonicalizer({});
  const ParamMatcher denylist(canonicalizer.options().strip_params);
  const size_t room = canonicalizer.options().max_length - 9;  // after "http://h/"
  auto repeat = [room](std::string_view unit) {
    std::string s;
    while (s.size() + unit.size() <= room) s += unit;
    return s;
  };
  int accepted = 0;
  for (std::string_view unit : {"../", "./", "/", "a/", "%", "%2e%2e/", "&", "a=1&", "utm_x=1&",
                                ";jsessionid=1", "\t", "é", "?", "%41"}) {
    CheckOne(canonicalizer, denylist, "http://h/" + repeat(unit), &accepted);
    CheckOne(canonicalizer, denylist, "http://h/?" + repeat(unit), &accepted);
  }
  CheckOne(canonicalizer, denylist, "http://" + repeat("a.") + "com/", &accepted);
  CheckOne(canonicalizer, denylist, "http://" + repeat("é") + "/", &accepted);
  CheckOne(canonicalizer, denylist, "http://" + repeat("1") + "/", &accepted);
  CheckOne(canonicalizer, denylist, "http://[" + repeat("1:") + "]/", &accepted);
  CheckOne(canonicalizer, denylist, "http://h:" + repeat("0") + "80/", &accepted);
  CheckOne(canonicalizer, denylist, std::string(1 << 20, ' '), &accepted);
  EXPECT_GT(accepted, 10);
}

}  // namespace
}  // namespace pagesieve::url
