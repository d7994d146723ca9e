// The property near-duplicate detection exists for, on real pages: the same
// article with other ads, navigation and timestamps around it stays within a
// few bits, while another article of the same site is far.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "fingerprint/fingerprinter.h"
#include "gzip_file.h"
#include "random_text.h"

namespace pagesieve::fingerprint {
namespace {

using testing::RandomText;

std::string ReadPage(const std::string& name) {
  return testing::ReadGzipFile(testing::ExtractionDataDir() + "/readability-testpages/pages/" +
                               name + "/source.html.gz");
}

size_t FindCaseInsensitive(const std::string& haystack, std::string_view needle, bool last) {
  auto equal = [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  };
  auto it =
      last ? std::find_end(haystack.begin(), haystack.end(), needle.begin(), needle.end(), equal)
           : std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(), equal);
  return it == haystack.end() ? std::string::npos : static_cast<size_t>(it - haystack.begin());
}

std::string Links(RandomText& random, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) {
    out += "<li><a href=\"/section/" + random.Word() + "\">" + random.Text(3) + "</a></li>";
  }
  return out;
}

// Inside the article, near its middle paragraph: a "related" teaser and an
// "updated" line, which change from fetch to fetch and often survive
// extraction.
void InsertInsideArticle(std::string& html, RandomText& random) {
  std::vector<size_t> paragraph_ends;
  for (size_t at = FindCaseInsensitive(html, "</p>", false); at != std::string::npos;
       at = html.find("</p>", at + 4)) {
    paragraph_ends.push_back(at + 4);
  }
  if (paragraph_ends.empty()) return;
  // Somewhere in the middle half, where the article's own paragraphs are.
  size_t at =
      paragraph_ends[paragraph_ends.size() / 4 + random.Index(paragraph_ends.size() / 2 + 1)];
  const char* kLabels[] = {"Updated", "Last modified", "Posted"};
  html.insert(at, "<p>Related: <a href=\"/story/" + random.Word() + "\">" + random.Text(8) +
                      "</a></p><p class=\"updated\">" + kLabels[random.Index(3)] + " " +
                      std::to_string(1 + random.Index(28)) + " May 2024 " +
                      std::to_string(random.Index(24)) + ":" +
                      std::to_string(10 + random.Index(50)) + "</p>");
}

// What changes between two fetches of the same article: the navigation and
// "most read" lists, the ads, the timestamp in the header, the footer, and a
// teaser inside the article.
std::string WithOtherBoilerplate(const std::string& html, RandomText& random) {
  std::string top = "<header><nav><ul>" + Links(random, 12) + "</ul></nav><p class=\"updated\">" +
                    "Updated " + std::to_string(1 + random.Index(28)) + " May 2024, " +
                    std::to_string(random.Index(24)) + ":" + std::to_string(10 + random.Index(50)) +
                    "</p></header>";
  std::string bottom =
      "<aside class=\"most-read\"><h2>Most read</h2><ol>" + Links(random, 8) +
      "</ol></aside><div class=\"advertisement\"><a href=\"/ad\">Sponsored: " + random.Text(15) +
      "</a></div><footer><ul>" + Links(random, 10) + "</ul><p>© 2024 " + random.Word() +
      " Media</p></footer>";
  std::string out = html;
  InsertInsideArticle(out, random);
  size_t body_end = FindCaseInsensitive(out, "</body", /*last=*/true);
  out.insert(body_end == std::string::npos ? out.size() : body_end, bottom);
  size_t body = FindCaseInsensitive(out, "<body", /*last=*/false);
  size_t after_tag = body == std::string::npos ? 0 : out.find('>', body);
  out.insert(after_tag == std::string::npos ? 0 : after_tag + 1, top);
  return out;
}

class RealPagesTest : public ::testing::TestWithParam<const char*> {
 protected:
  std::optional<uint64_t> SimHashOf(const std::string& html) {
    StatusOr<PageFingerprint> fp = FingerprintOf(html);
    return fp.ok() ? fp->simhash : std::nullopt;
  }
  std::optional<MinHashSketch> SketchOf(const std::string& html) {
    StatusOr<PageFingerprint> fp = FingerprintOf(html);
    return fp.ok() ? fp->minhash : std::nullopt;
  }
  StatusOr<PageFingerprint> FingerprintOf(const std::string& html) {
    StatusOr<PageFingerprint> fp =
        fingerprinter_.Fingerprint(PageInput{"https://example.com/article", "text/html", html, {}});
    EXPECT_TRUE(fp.ok());
    return fp;
  }
  Fingerprinter fingerprinter_{FingerprintOptions{}};
};

TEST_P(RealPagesTest, SameArticleWithOtherBoilerplateStaysWithin3Bits) {
  std::string html = ReadPage(GetParam());
  ASSERT_FALSE(html.empty()) << "missing test page " << GetParam();
  std::optional<uint64_t> original = SimHashOf(html);
  ASSERT_TRUE(original.has_value());
  RandomText random(std::hash<std::string_view>()(GetParam()) % 1000);
  for (int variant = 0; variant < 4; ++variant) {
    std::optional<uint64_t> mutated = SimHashOf(WithOtherBoilerplate(html, random));
    ASSERT_TRUE(mutated.has_value());
    EXPECT_LE(HammingDistance(*original, *mutated), 3) << "variant " << variant;
  }
}

// The same variants, by estimated Jaccard similarity of the main text (all
// measured at 0.996 or 1: extraction drops most of the boilerplate).
TEST_P(RealPagesTest, SameArticleWithOtherBoilerplateKeepsAHighJaccard) {
  std::string html = ReadPage(GetParam());
  ASSERT_FALSE(html.empty()) << "missing test page " << GetParam();
  std::optional<MinHashSketch> original = SketchOf(html);
  ASSERT_TRUE(original.has_value());
  RandomText random(std::hash<std::string_view>()(GetParam()) % 1000);
  for (int variant = 0; variant < 4; ++variant) {
    std::optional<MinHashSketch> mutated = SketchOf(WithOtherBoilerplate(html, random));
    ASSERT_TRUE(mutated.has_value());
    EXPECT_GE(EstimateJaccard(*original, *mutated).value(), 0.95) << "variant " << variant;
  }
}

INSTANTIATE_TEST_SUITE_P(Articles, RealPagesTest,
                         ::testing::Values("nytimes-1", "wapo-1", "medium-1", "yahoo-1",
                                           "guardian-1", "wikipedia-2", "lemonde-1"));

// Two articles of one site share its template, but not their text.
TEST(RealPagesPairTest, DifferentArticlesOfTheSameSiteAreFar) {
  Fingerprinter fingerprinter{FingerprintOptions{}};
  const std::pair<const char*, const char*> pairs[] = {
      {"nytimes-1", "nytimes-2"}, {"wapo-1", "wapo-2"}, {"medium-1", "medium-2"},
      {"yahoo-1", "yahoo-2"},     {"ehow-1", "ehow-2"}, {"wikipedia", "wikipedia-2"}};
  for (const auto& [a, b] : pairs) {
    std::string html_a = ReadPage(a);
    std::string html_b = ReadPage(b);
    auto fa = fingerprinter.Fingerprint(PageInput{"https://example.com/a", "", html_a, {}});
    auto fb = fingerprinter.Fingerprint(PageInput{"https://example.com/b", "", html_b, {}});
    ASSERT_TRUE(fa.ok() && fb.ok());
    ASSERT_TRUE(fa->simhash && fb->simhash) << a << " " << b;
    EXPECT_GT(HammingDistance(*fa->simhash, *fb->simhash), 12) << a << " vs " << b;
    ASSERT_TRUE(fa->minhash && fb->minhash) << a << " " << b;
    EXPECT_LT(EstimateJaccard(*fa->minhash, *fb->minhash).value(), 0.1) << a << " vs " << b;
  }
}

}  // namespace
}  // namespace pagesieve::fingerprint
