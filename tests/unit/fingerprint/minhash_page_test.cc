// MinHash sketches of whole pages through the Fingerprinter: which pages get
// one, in which scripts, and how bad input behaves.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "fingerprint/fingerprinter.h"
#include "fingerprint/shingles.h"
#include "random_text.h"

namespace pagesieve::fingerprint {
namespace {

using testing::RandomText;

constexpr std::string_view kUrl = "https://example.com/page";

PageFingerprint FingerprintOf(std::string_view body, std::string_view type = "text/plain",
                              FingerprintOptions options = {}) {
  Fingerprinter fingerprinter(options);
  return fingerprinter.Fingerprint(PageInput{kUrl, type, body, {}}).value();
}

double Jaccard(const PageFingerprint& a, const PageFingerprint& b) {
  EXPECT_TRUE(a.minhash && b.minhash);
  return a.minhash && b.minhash ? EstimateJaccard(*a.minhash, *b.minhash).value() : -1;
}

std::string Repeat(std::string_view text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

TEST(MinHashPageTest, TextWithEnoughTokensGetsASketchOfTheConfiguredShape) {
  PageFingerprint fp = FingerprintOf(RandomText(1).Text(300));
  ASSERT_TRUE(fp.minhash.has_value());
  EXPECT_EQ(fp.minhash->slots(), 256);
  EXPECT_EQ(fp.minhash->bits(), 8);
}

TEST(MinHashPageTest, EditedCopyIsSimilarAndUnrelatedTextIsNot) {
  RandomText random(2);
  std::vector<std::string> words = random.WordList(400);
  PageFingerprint original = FingerprintOf(RandomText::Join(words));
  words[100] = "replaced";
  words[300] = "words";
  // 2 edits kill at most 6 of 398 shingles: J >= 392/404 = 0.97.
  EXPECT_GT(Jaccard(original, FingerprintOf(RandomText::Join(words))), 0.9);
  EXPECT_LT(Jaccard(original, FingerprintOf(random.Text(400))), 0.05);
}

// Headings weigh in the SimHash but are not part of the shingle set, and a
// title is not either, so a crawler's extracted text sketches like the page
// it came from. The page's sketch carries its title besides, which does not
// count for a long page, so the two are judged alike.
TEST(MinHashPageTest, ExtractedAndGivenTextOfALongPageHaveTheSameSketch) {
  std::string html = "<html><head><title>Title words</title></head><body><article><h1>Head</h1>";
  RandomText random(3);
  for (int i = 0; i < 5; ++i) html += "<p>" + random.Text(40) + "</p>";
  html += "</article></body></html>";
  FingerprintOptions options;
  options.short_text_tokens = 100;  // the page has 200 tokens: long
  Fingerprinter fingerprinter{options};
  PageFingerprint extracted = fingerprinter.Fingerprint({kUrl, "text/html", html, {}}).value();
  PageFingerprint given =
      fingerprinter.Fingerprint({kUrl, "text/html", "", extracted.text}).value();
  ASSERT_TRUE(extracted.minhash.has_value());
  ASSERT_TRUE(given.minhash.has_value());
  EXPECT_TRUE(std::ranges::equal(extracted.minhash->values(), given.minhash->values()));
  EXPECT_EQ(extracted.minhash->set_size(), given.minhash->set_size());
  EXPECT_FALSE(extracted.minhash->title().counts);
}

// content.short_text_tokens: below it, a page's sketch carries its title as
// part of its identity, so two short pages that share their text (a site's
// chrome taken for the article, a stock message) only match when their
// titles agree; the title is no longer in the set, so the text's Jaccard is
// the text's.
class ShortPageTitleTest : public ::testing::Test {
 protected:
  static std::string Page(std::string_view title, const std::string& text) {
    return "<html><head><title>" + std::string(title) + "</title></head><body><article><p>" + text +
           "</p></article></body></html>";
  }
  PageFingerprint Of(std::string_view title, const std::string& text) {
    return fingerprinter_.Fingerprint({kUrl, "text/html", Page(title, text), {}}).value();
  }
  static bool Agree(const PageFingerprint& a, const PageFingerprint& b) {
    return TitlesAgree(a.minhash->title().tokens, b.minhash->title().tokens);
  }
  Fingerprinter fingerprinter_{FingerprintOptions{}};
  std::string text_ = RandomText(6).Text(300);
};

TEST_F(ShortPageTitleTest, TheSameTextUnderAnotherTitleDisagreesInTitle) {
  PageFingerprint a = Of("Posts tagged winter", text_);
  PageFingerprint b = Of("Articles by Anna Berg", text_);
  ASSERT_EQ(a.text, b.text);
  EXPECT_EQ(Jaccard(a, b), 1.0);
  EXPECT_TRUE(a.minhash->title().counts);
  EXPECT_FALSE(Agree(a, b));
  EXPECT_NE(a.content, b.content);
}

TEST_F(ShortPageTitleTest, TheSameTitleAndTextAreOnePage) {
  EXPECT_EQ(Of("Posts tagged winter", text_).content, Of("Posts tagged winter", text_).content);
  EXPECT_EQ(Jaccard(Of("Posts tagged winter", text_), Of("Posts tagged winter", text_)), 1.0);
  EXPECT_TRUE(Agree(Of("Posts tagged winter", text_), Of("Posts tagged winter", text_)));
}

// A syndicated copy shows the headline without the original's site name:
// the set no longer holds title words for one side only (J was 0.77 for a
// copy of identical text, under any useful near.jaccard), and the titles agree.
TEST_F(ShortPageTitleTest, ASiteNameOnOneSideKeepsTheCopyWhole) {
  PageFingerprint a = Of("Council votes to keep the library open - The Daily Courier", text_);
  PageFingerprint b = Of("COUNCIL VOTES TO KEEP THE LIBRARY OPEN", text_);
  EXPECT_EQ(Jaccard(a, b), 1.0);
  EXPECT_TRUE(Agree(a, b));
}

TEST_F(ShortPageTitleTest, ATitleWithOneWordChangedKeepsTheCopySimilar) {
  std::vector<std::string> words = RandomText(7).WordList(300);
  PageFingerprint a =
      Of("Council votes to keep the library open on weekends", RandomText::Join(words));
  words[150] = "changed";
  PageFingerprint b =
      Of("Council votes to keep the library open on Sundays", RandomText::Join(words));
  EXPECT_GT(Jaccard(a, b), 0.85);
  EXPECT_TRUE(Agree(a, b));
}

TEST_F(ShortPageTitleTest, ALongPagesTitleDoesNotCount) {
  FingerprintOptions options;
  options.short_text_tokens = 200;
  Fingerprinter long_pages(options);
  PageFingerprint a =
      long_pages.Fingerprint({kUrl, "text/html", Page("Posts tagged winter", text_), {}}).value();
  PageFingerprint b =
      long_pages.Fingerprint({kUrl, "text/html", Page("Articles by Anna Berg", text_), {}}).value();
  EXPECT_EQ(a.content, b.content);
  EXPECT_EQ(Jaccard(a, b), 1.0);
  // Carried, for a short page to compare with, but not part of its identity.
  EXPECT_FALSE(a.minhash->title().tokens.empty());
  EXPECT_FALSE(a.minhash->title().counts);
}

TEST_F(ShortPageTitleTest, ARepeatedWordUnderATitleStillGetsNoSketch) {
  PageFingerprint fp =
      Of("A long title of many different words to fill the set", Repeat("spam ", 400));
  EXPECT_TRUE(fp.simhash.has_value());
  EXPECT_FALSE(fp.minhash.has_value());
}

TEST(MinHashPageTest, TextBelowMinTokensGetsNoSketch) {
  PageFingerprint fp = FingerprintOf(RandomText(4).Text(40));
  EXPECT_FALSE(fp.simhash.has_value());
  EXPECT_FALSE(fp.minhash.has_value());
}

// One repeated word has one distinct shingle: it keeps its SimHash (as
// before) but gets no sketch, so two such pages never match by Jaccard,
// however many times the word is repeated.
TEST(MinHashPageTest, OneRepeatedWordGetsNoSketch) {
  for (int times : {60, 500, 20'000}) {
    PageFingerprint fp = FingerprintOf(Repeat("spam ", times));
    EXPECT_TRUE(fp.simhash.has_value()) << times;
    EXPECT_FALSE(fp.minhash.has_value()) << times;
  }
}

TEST(MinHashPageTest, RepeatedPhraseGetsNoSketch) {
  // A 10-word phrase over and over: 10 distinct 3-word shingles.
  PageFingerprint fp =
      FingerprintOf(Repeat("buy cheap watches online today with free "
                           "shipping and returns ",
                           100));
  EXPECT_EQ(fp.tokens, 1000u);
  EXPECT_FALSE(fp.minhash.has_value());
}

TEST(MinHashPageTest, NoSketchWhenSlotsAreZero) {
  FingerprintOptions options;
  options.minhash.slots = 0;
  PageFingerprint fp = FingerprintOf(RandomText(5).Text(300), "text/plain", options);
  EXPECT_TRUE(fp.simhash.has_value());
  EXPECT_FALSE(fp.minhash.has_value());
}

// The sketch of an unspaced-script page is that of its character bigrams.
void ExpectSketchOfCharacterBigrams(const std::string& text) {
  PageFingerprint fp = FingerprintOf(text);
  ASSERT_TRUE(fp.minhash.has_value()) << fp.tokens << " tokens";
  TokenHashes tokens;
  AppendTokenHashes(content::NormalizeForHashing(text), &tokens);
  std::vector<uint64_t> bigrams;
  AppendShingles(tokens.hashes, kUnspacedShingleSize, &bigrams);
  std::sort(bigrams.begin(), bigrams.end());
  MinHasher hasher{MinHashOptions{}};
  EXPECT_EQ(fp.minhash, hasher.Sketch(bigrams));
}

const std::string kChinese =
    "北京时间昨天晚上，国家统计局发布了今年前三个季度的经济数据。数据显示，"
    "全国居民人均可支配收入比去年同期增长百分之六点三，扣除价格因素后实际增长"
    "百分之五点九。与此同时，城镇调查失业率保持稳定，消费市场继续恢复。";
const std::string kThai =
    "กรุงเทพมหานครเป็นเมืองหลวงและนครที่มีประชากรมากที่สุดของประเทศไทย "
    "เป็นศูนย์กลางการปกครอง การศึกษา การคมนาคมขนส่ง การเงินการธนาคาร "
    "การพาณิชย์ การสื่อสาร และความเจริญของประเทศ";

TEST(MinHashPageTest, ChineseIsSketchedInCharacterBigrams) {
  ExpectSketchOfCharacterBigrams(kChinese);
}

TEST(MinHashPageTest, ThaiIsSketchedInCharacterBigrams) { ExpectSketchOfCharacterBigrams(kThai); }

TEST(MinHashPageTest, EditedChineseStaysSimilar) {
  std::string edited = kChinese;
  edited.replace(edited.find("昨天"), std::string("昨天").size(), "今天");
  const double j = Jaccard(FingerprintOf(kChinese), FingerprintOf(edited));
  EXPECT_GT(j, 0.8);
  EXPECT_LT(j, 1.0);
  EXPECT_LT(Jaccard(FingerprintOf(kChinese), FingerprintOf(kThai)), 0.05);
}

std::string RandomBytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string out(n, '\0');
  for (char& c : out) c = static_cast<char>(rng());
  return out;
}

// Binary bodies: sniffed as binary, they have no text and no sketch;
// declared as text, their "words" are random, so their sketches match
// neither each other nor real text.
TEST(MinHashPageTest, BinaryBodiesMatchNothing) {
  EXPECT_FALSE(FingerprintOf(RandomBytes(100'000, 6), "application/octet-stream").minhash);
  EXPECT_FALSE(FingerprintOf("\x89PNG\r\n\x1A\n" + RandomBytes(100'000, 7), "").minhash);
  const PageFingerprint text = FingerprintOf(RandomText(8).Text(500));
  std::vector<PageFingerprint> sketched;
  uint64_t seed = 9;  // other bytes for every body: the same bytes would match, rightly
  for (std::string_view type : {"text/plain", "text/html", "text/plain; charset=utf-16"}) {
    for (int i = 0; i < 2; ++i) {
      PageFingerprint fp = FingerprintOf(RandomBytes(200'000, seed++), type);
      if (fp.minhash) sketched.push_back(fp);
    }
  }
  ASSERT_FALSE(sketched.empty());  // random bytes read as text do yield words
  for (size_t i = 0; i < sketched.size(); ++i) {
    EXPECT_LT(Jaccard(sketched[i], text), 0.05);
    for (size_t j = i + 1; j < sketched.size(); ++j) {
      EXPECT_LT(Jaccard(sketched[i], sketched[j]), 0.05) << i << " " << j;
    }
  }
}

// A text of a million tokens still gets a sketch of 256 slots; only the
// first max_body_bytes of it are shingled, so what follows changes nothing.
TEST(MinHashPageTest, VeryLongTextGetsABoundedSketchOfItsFirstMaxBodyBytes) {
  FingerprintOptions options;
  options.max_body_bytes = 1 << 20;
  RandomText random(11);
  const std::string head = random.Text(200'000);  // about 1.2 MB
  ASSERT_GT(head.size(), options.max_body_bytes);
  PageFingerprint a = FingerprintOf(head + random.Text(1000), "text/plain", options);
  PageFingerprint b = FingerprintOf(head + random.Text(1000), "text/plain", options);
  ASSERT_TRUE(a.minhash.has_value());
  EXPECT_TRUE(a.truncated);
  EXPECT_EQ(a.minhash->EncodedSize(), 264u);
  EXPECT_EQ(a.minhash, b.minhash);
}

}  // namespace
}  // namespace pagesieve::fingerprint
