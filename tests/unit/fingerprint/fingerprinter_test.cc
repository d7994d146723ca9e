#include "fingerprint/fingerprinter.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "content/content.h"

namespace pagesieve::fingerprint {
namespace {

constexpr std::string_view kUrl = "https://example.com/news/article?id=7";

std::string Article(std::string_view heading, std::string_view paragraph_words) {
  std::string html = "<!doctype html><html><head><title>A title</title></head><body><article><h1>";
  html += heading;
  html += "</h1>";
  for (int i = 0; i < 6; ++i) {
    html += "<p>";
    html += paragraph_words;
    html += " paragraph number " + std::to_string(i) + ".</p>";
  }
  html += "</article></body></html>";
  return html;
}

const std::string kProse =
    "The committee met on Tuesday to discuss the budget for the coming year and agreed after "
    "a long debate that the library would stay open on weekends";

class FingerprinterTest : public ::testing::Test {
 protected:
  PageFingerprint Fingerprint(std::string_view body, std::string_view content_type = "text/html",
                              std::optional<std::string_view> text = std::nullopt) {
    StatusOr<PageFingerprint> fp =
        fingerprinter_.Fingerprint(PageInput{kUrl, content_type, body, text});
    EXPECT_TRUE(fp.ok()) << fp.status().ToString();
    return fp.ok() ? *fp : PageFingerprint{};
  }

  FingerprintOptions options_;
  Fingerprinter fingerprinter_{options_};
};

TEST_F(FingerprinterTest, UrlDigestIsOverTheCanonicalUrl) {
  StatusOr<PageFingerprint> a =
      fingerprinter_.Fingerprint(PageInput{"HTTP://Example.COM:80/a/./b#top", "", "", {}});
  StatusOr<PageFingerprint> b =
      fingerprinter_.Fingerprint(PageInput{"http://example.com/a/b", "", "", {}});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->canonical_url.spec, b->canonical_url.spec);
  EXPECT_EQ(a->url, b->url);
  EXPECT_EQ(a->url, Sha256Digest128(a->canonical_url.spec));
}

TEST_F(FingerprinterTest, UncanonicalizableUrlIsInvalidArgument) {
  StatusOr<PageFingerprint> fp =
      fingerprinter_.Fingerprint(PageInput{"ftp://example.com/file", "", "body", {}});
  ASSERT_FALSE(fp.ok());
  EXPECT_EQ(fp.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(FingerprinterTest, HtmlPageGetsTitleTextAndAllFingerprints) {
  std::string html = Article("Library hours", kProse);
  PageFingerprint fp = Fingerprint(html);
  EXPECT_NE(fp.text.find("library would stay open"), std::string::npos);
  EXPECT_GE(fp.tokens, 50u);
  EXPECT_TRUE(fp.simhash.has_value());
  EXPECT_EQ(fp.payload, PayloadDigest(html));
  EXPECT_NE(fp.content, Sha256Digest128(html));
  EXPECT_FALSE(fp.truncated);
}

TEST_F(FingerprinterTest, ContentDigestIgnoresMarkupAndBoilerplateSpacing) {
  std::string a = Article("Library hours", kProse);
  std::string b = a;
  b.insert(b.find("<article>"), "\n  <!-- build 1234 -->\n  ");
  EXPECT_EQ(Fingerprint(a).content, Fingerprint(b).content);
  EXPECT_NE(Fingerprint(a).payload, Fingerprint(b).payload);
}

// A given text has no title: for a page shorter than content.short_text_tokens,
// whose digest covers its title, the two differ (AShortPagesContentDigest...).
TEST_F(FingerprinterTest, ExtractedAndGivenTextDigestTheSameWhenTitlesDoNotCount) {
  FingerprintOptions options;
  options.short_text_tokens = 0;
  Fingerprinter untitled(options);
  const std::string page = Article("Library hours", kProse);
  PageFingerprint extracted = untitled.Fingerprint(PageInput{kUrl, "text/html", page, {}}).value();
  PageFingerprint given =
      untitled.Fingerprint(PageInput{kUrl, "text/html", "", extracted.text}).value();
  EXPECT_EQ(given.text, extracted.text);
  EXPECT_EQ(given.content, extracted.content);
  EXPECT_EQ(given.tokens, extracted.tokens);
}

TEST_F(FingerprinterTest, GivenTextWinsOverTheBody) {
  PageFingerprint fp = Fingerprint(Article("Library hours", kProse), "text/html", "Other words.");
  EXPECT_EQ(fp.text, "Other words.");
  EXPECT_EQ(fp.content, Sha256Digest128(content::NormalizeForHashing("Other words.")));
  EXPECT_TRUE(fp.title.empty());
}

// Blank lines separate the blocks of a given text, as MainContent::Text()
// writes them; shingles never span blocks, so swapping two whole paragraphs
// keeps the SimHash (the content digest still sees the order).
TEST_F(FingerprinterTest, GivenTextParagraphsAreShingledAsBlocks) {
  std::string a = kProse + " first";
  std::string b =
      "Another paragraph about the weather and the harvest, which was late this year "
      "because of the rain that fell for most of August";
  PageFingerprint ab = Fingerprint("", "", a + "\n\n" + b);
  PageFingerprint ba = Fingerprint("", "", b + "\n \r\n" + a);
  ASSERT_TRUE(ab.simhash.has_value());
  EXPECT_EQ(ab.simhash, ba.simhash);
  EXPECT_NE(ab.content, ba.content);
}

TEST_F(FingerprinterTest, PlainTextBodyIsTheText) {
  std::string body = "Plain  Text\nbody, with CAPITALS.";
  PageFingerprint fp = Fingerprint(body, "text/plain; charset=utf-8");
  EXPECT_EQ(fp.text, body);
  EXPECT_EQ(fp.content, Sha256Digest128(content::NormalizeForHashing(body)));
  EXPECT_EQ(fp.tokens, 5u);
}

TEST_F(FingerprinterTest, NonTextContentDigestsTheRawBytes) {
  std::string pdf = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n";
  PageFingerprint fp = Fingerprint(pdf, "application/pdf");
  EXPECT_EQ(fp.content, Sha256Digest128(pdf));
  EXPECT_EQ(fp.tokens, 0u);
  EXPECT_TRUE(fp.text.empty());
  EXPECT_FALSE(fp.simhash.has_value());
}

TEST_F(FingerprinterTest, PagesWithoutTextOnlyMatchByteIdenticalPages) {
  std::string a = "<html><body><img src=a.png></body></html>";
  std::string b = "<html><body><img src=b.png></body></html>";
  EXPECT_EQ(Fingerprint(a).content, Sha256Digest128(a));
  EXPECT_NE(Fingerprint(a).content, Fingerprint(b).content);
  EXPECT_EQ(Fingerprint(a).content, Fingerprint(std::string(a)).content);
}

// Two threads of one forum whose posts a script renders: all the extractor
// can see is the sidebar both share. Compared by it they were duplicates.
std::string ForumThread(std::string_view thread_id, std::string_view posts) {
  std::string html = "<!doctype html><html><head><title>Garden forum</title></head><body>";
  html += "<div id=\"thread\" data-thread=\"" + std::string(thread_id) + "\">";
  html += std::string(posts) + "</div><script>renderThread()</script>";
  html +=
      "<div class=\"sidebar\"><h3>About this forum</h3><p>A friendly place to talk about "
      "gardening, compost and the weather, since 2004. Be kind to each other, and search "
      "before you ask.</p><ul><li><a href=\"/t/1\">Tomatoes</a></li><li><a href=\"/t/2\">"
      "Roses</a></li></ul></div></body></html>";
  return html;
}

TEST_F(FingerprinterTest, PagesSharingOnlyASidebarDoNotMatch) {
  PageFingerprint a = Fingerprint(ForumThread("1017", ""));
  PageFingerprint b = Fingerprint(ForumThread("2203", ""));
  EXPECT_NE(a.content, b.content);
  EXPECT_EQ(a.content, Sha256Digest128(ForumThread("1017", "")));
  EXPECT_TRUE(a.text.empty());
  EXPECT_FALSE(a.simhash.has_value());
  // A byte-identical copy still matches.
  EXPECT_EQ(a.content, Fingerprint(ForumThread("1017", "")).content);
}

TEST_F(FingerprinterTest, PagesSharingASidebarAndAFewWordsDoNotMatch) {
  PageFingerprint a = Fingerprint(ForumThread("1017", "<p>+1, same here</p>"));
  PageFingerprint b = Fingerprint(ForumThread("2203", "<p>+1, same here</p>"));
  EXPECT_NE(a.content, b.content);
  EXPECT_FALSE(a.simhash.has_value());
}

TEST_F(FingerprinterTest, AnArticleInTheSameTemplateIsItsText) {
  std::string posts;
  for (int i = 0; i < 4; ++i) posts += "<p>" + kProse + ", post " + std::to_string(i) + ".</p>";
  PageFingerprint fp = Fingerprint(ForumThread("1017", posts));
  EXPECT_NE(fp.text.find("library would stay open"), std::string::npos);
  EXPECT_EQ(fp.text.find("friendly place"), std::string::npos);
  EXPECT_NE(fp.content, Sha256Digest128(ForumThread("1017", posts)));
  EXPECT_TRUE(fp.simhash.has_value());
}

TEST_F(FingerprinterTest, AShortPagesContentDigestCoversItsTitle) {
  std::string page = Article("Library hours", kProse);
  PageFingerprint fp = Fingerprint(page);
  ASSERT_LT(fp.tokens, options_.short_text_tokens);
  std::string retitled = page;
  retitled.replace(retitled.find("A title"), 7, "Another title");
  EXPECT_NE(Fingerprint(retitled).content, fp.content);
  EXPECT_EQ(Fingerprint(retitled).text, fp.text);
  // Over the normalized title, a newline and the normalized text.
  EXPECT_EQ(fp.content, Sha256Digest128(content::NormalizeForHashing("A title") + "\n" +
                                        content::NormalizeForHashing(fp.text)));
}

TEST_F(FingerprinterTest, EmptyBodyIsFingerprinted) {
  PageFingerprint fp = Fingerprint("", "");
  EXPECT_EQ(fp.content, Sha256Digest128(""));
  EXPECT_EQ(fp.payload, "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
  EXPECT_FALSE(fp.simhash.has_value());
}

TEST_F(FingerprinterTest, ShortPageGetsNoSimHash) {
  // Short, but an article: a few words less would be no article at all.
  PageFingerprint fp = Fingerprint(
      "<html><body><p>Only a few words here, the short notice said, because the library "
      "would close early on Friday for the staff party.</p></body></html>");
  EXPECT_GT(fp.tokens, 0u);
  EXPECT_LT(fp.tokens, options_.min_tokens);
  EXPECT_FALSE(fp.simhash.has_value());
}

TEST_F(FingerprinterTest, HostileBodiesAreFingerprinted) {
  std::mt19937_64 rng(3);
  std::string random_bytes(200'000, '\0');
  for (char& c : random_bytes) c = static_cast<char>(rng());
  std::string nested;
  for (int i = 0; i < 100'000; ++i) nested += "<div><p>";
  nested += "deep";
  std::string unclosed = "<html><body><p title=\"" + std::string(100'000, 'x');
  for (const std::string& body : {random_bytes, nested, unclosed}) {
    PageFingerprint fp = Fingerprint(body, "text/html");
    EXPECT_EQ(fp.payload, PayloadDigest(body));
  }
}

TEST_F(FingerprinterTest, InvalidUtf8InGivenTextIsFingerprinted) {
  PageFingerprint fp = Fingerprint("", "", std::string_view("caf\xe9 \xff\xfe ok", 11));
  EXPECT_GT(fp.tokens, 0u);
}

class TruncationTest : public ::testing::Test {
 protected:
  TruncationTest() {
    options_.max_body_bytes = 2048;
    options_.min_tokens = 10;
  }
  PageFingerprint Fingerprint(std::string_view body,
                              std::optional<std::string_view> text = std::nullopt) {
    Fingerprinter fingerprinter(options_);
    return fingerprinter.Fingerprint(PageInput{kUrl, "text/plain", body, text}).value();
  }
  FingerprintOptions options_;
};

std::string Words(int count, std::string_view word) {
  std::string out;
  for (int i = 0; i < count; ++i) out += std::string(word) + std::to_string(i) + " ";
  return out;
}

TEST_F(TruncationTest, OnlyTheFirstMaxBodyBytesShapeTextDigestAndSimHash) {
  std::string prefix = Words(300, "alpha");  // longer than 2048 bytes
  PageFingerprint a = Fingerprint(prefix + Words(100, "beta"));
  PageFingerprint b = Fingerprint(prefix + Words(100, "gamma"));
  EXPECT_TRUE(a.truncated);
  EXPECT_EQ(a.content, b.content);
  EXPECT_EQ(a.simhash, b.simhash);
  EXPECT_LE(a.text.size(), options_.max_body_bytes);
}

TEST_F(TruncationTest, PayloadCoversTheWholeBody) {
  std::string body = Words(300, "alpha") + Words(100, "beta");
  PageFingerprint fp = Fingerprint(body);
  EXPECT_EQ(fp.payload, PayloadDigest(body));
}

TEST_F(TruncationTest, BodyAtTheLimitIsNotTruncated) {
  std::string body(options_.max_body_bytes, 'a');
  EXPECT_FALSE(Fingerprint(body).truncated);
  EXPECT_TRUE(Fingerprint(body + "a").truncated);
}

TEST_F(TruncationTest, GivenTextIsCutAtACharacterBoundary) {
  std::string text(options_.max_body_bytes - 1, 'a');
  text += "é and more";  // é straddles the limit
  PageFingerprint fp = Fingerprint("", text);
  EXPECT_TRUE(fp.truncated);
  EXPECT_EQ(fp.text, std::string(options_.max_body_bytes - 1, 'a'));
}

}  // namespace
}  // namespace pagesieve::fingerprint
