// Hand-checked scenarios for every rule of the engine (docs/engine.md),
// each a short timeline of fetched pages.
#include "engine/decider.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine_harness.h"
#include "fingerprint/simhash.h"

namespace pagesieve::engine::testing {
namespace {

using ::testing::HasSubstr;

TEST(DeciderTest, FirstPageIsUniqueWithItsFingerprints) {
  EngineHarness h;
  Verdict v = h.Must({.url = "https://www.example.com/a", .text = Prose(1), .event_id = "e1"});
  EXPECT_THAT(v, IsUnique());
  EXPECT_EQ(v.record.canonical_url, "https://www.example.com/a");
  EXPECT_EQ(v.record.scope, "example.com");
  EXPECT_EQ(v.record.event_id, "e1");
  ASSERT_TRUE(v.record.fingerprints.has_value());
  EXPECT_TRUE(v.record.fingerprints->simhash.has_value());
  EXPECT_EQ(v.record.fingerprints->payload.rfind("sha1:", 0), 0u);
}

TEST(DeciderTest, UrlVariantIsAUrlDuplicateOfTheFirst) {
  EngineHarness h;
  h.Must({.url = "https://www.example.com/a?id=7", .text = Prose(1), .event_id = "e1"});
  Verdict v = h.Must({.url = "https://WWW.example.com:443/./a?utm_source=x&id=7#top",
                      .time_ms = kT0 + kMinute,
                      .text = Prose(1),
                      .event_id = "e2"});
  EXPECT_THAT(v, IsDuplicateOf(Tier::kUrl, "e1"));
  EXPECT_EQ(v.decision.duplicate_of->url, "https://www.example.com/a?id=7");
  EXPECT_EQ(v.decision.duplicate_of->event_time, EventTimeFromMillis(kT0));
  EXPECT_FALSE(v.decision.distance.has_value());
}

TEST(DeciderTest, RevisitWithChangedContentIsNotAUrlDuplicate) {
  EngineHarness h;
  h.Must({.url = "https://example.com/news", .text = Prose(1), .event_id = "v1"});
  // The page changed: it goes on to the content tiers, and is new there.
  Verdict changed = h.Must({.url = "https://example.com/news",
                            .time_ms = kT0 + kHour,
                            .text = Prose(2),
                            .event_id = "v2"});
  EXPECT_THAT(changed, IsUnique());
  // The stored digest is now the new one: the same new content is a URL
  // duplicate, still of the URL's first record.
  Verdict again = h.Must({.url = "https://example.com/news",
                          .time_ms = kT0 + 2 * kHour,
                          .text = Prose(2),
                          .event_id = "v3"});
  EXPECT_THAT(again, IsDuplicateOf(Tier::kUrl, "v1"));
}

TEST(DeciderTest, RevisitPolicyDuplicateIgnoresContentChanges) {
  EngineHarness h("[url]\non_revisit = \"duplicate\"\n");
  h.Must({.url = "https://example.com/news", .text = Prose(1), .event_id = "v1"});
  Verdict v = h.Must({.url = "https://example.com/news",
                      .time_ms = kT0 + kHour,
                      .text = Prose(2),
                      .event_id = "v2"});
  EXPECT_THAT(v, IsDuplicateOf(Tier::kUrl, "v1"));
}

TEST(DeciderTest, SameContentAtAnotherUrlIsAnExactDuplicate) {
  EngineHarness h;
  h.Must({.url = "https://example.com/story", .text = Prose(3), .event_id = "a"});
  Verdict v = h.Must({.url = "https://example.com/print/story",
                      .time_ms = kT0 + kMinute,
                      .text = Prose(3),
                      .event_id = "b"});
  EXPECT_THAT(v, IsDuplicateOf(Tier::kExact, "a"));
  EXPECT_EQ(v.decision.distance, 0);
}

TEST(DeciderTest, ExactMatchSurvivesWhitespaceAndCaseDifferences) {
  EngineHarness h;
  const std::string text = Prose(3);
  h.Must({.url = "https://example.com/1", .text = text, .event_id = "a"});
  std::string shouted = "  " + text + "\n\n";
  for (char& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  Verdict v = h.Must({.url = "https://example.com/2", .text = shouted, .event_id = "b"});
  EXPECT_THAT(v, IsDuplicateOf(Tier::kExact, "a"));
}

// One word changed in an article of 800 words: 3 of ~800 shingles differ, so
// SimHash's expected distance is ~1.7 bits (64 * angle / pi).
TEST(DeciderTest, SlightlyEditedContentIsANearDuplicate) {
  EngineHarness h;
  const std::string text = Prose(4, 800);
  h.Must({.url = "https://example.com/x", .text = text, .event_id = "a"});
  Verdict v = h.Must({.url = "https://example.com/y",
                      .time_ms = kT0 + kMinute,
                      .text = ReplaceWord(text, 400, "comet"),
                      .event_id = "b"});
  EXPECT_THAT(v, IsDuplicateOf(Tier::kNear, "a"));
  ASSERT_TRUE(v.decision.distance.has_value());
  EXPECT_GT(*v.decision.distance, 0);
  EXPECT_LE(*v.decision.distance, 3);
  EXPECT_EQ(
      *v.decision.distance,
      fingerprint::HammingDistance(
          *v.record.fingerprints->simhash,
          *h.Must({.url = "https://example.com/z", .text = text}).record.fingerprints->simhash));
}

TEST(DeciderTest, UnrelatedContentIsUnique) {
  EngineHarness h;
  h.Must({.url = "https://example.com/x", .text = Prose(5)});
  EXPECT_THAT(h.Must({.url = "https://example.com/y", .text = Prose(6)}), IsUnique());
}

TEST(DeciderTest, ShortTextsGetNoSimHashAndNoNearMatch) {
  EngineHarness h;
  Verdict a = h.Must({.url = "https://example.com/x", .text = "a short note about rivers"});
  EXPECT_FALSE(a.record.fingerprints->simhash.has_value());
  EXPECT_THAT(h.Must({.url = "https://example.com/y", .text = "a short note about bridges"}),
              IsUnique());
}

// Expiry runs on event time: an entry is live while last_seen >= watermark - ttl.
TEST(DeciderTest, ExactEntryIsLiveAtItsTtlAndDeadOneMillisecondLater) {
  EngineHarness h("[exact]\nttl = \"1h\"\n");
  h.Must({.url = "https://example.com/1", .time_ms = kT0, .text = Prose(7), .event_id = "a"});
  Verdict at_ttl = h.Must(
      {.url = "https://example.com/2", .time_ms = kT0 + kHour, .text = Prose(7), .event_id = "b"});
  EXPECT_THAT(at_ttl, IsDuplicateOf(Tier::kExact, "a"));

  EngineHarness later("[exact]\nttl = \"1h\"\n");
  later.Must({.url = "https://example.com/1", .time_ms = kT0, .text = Prose(7), .event_id = "a"});
  Verdict past_ttl = later.Must({.url = "https://example.com/2",
                                 .time_ms = kT0 + kHour + 1,
                                 .text = Prose(7),
                                 .event_id = "b"});
  // Expired from the exact store; the near store (30d) still holds it.
  EXPECT_THAT(past_ttl, IsDuplicateOf(Tier::kNear, "a"));
}

TEST(DeciderTest, UrlEntryExpiresAfterUrlTtl) {
  EngineHarness h("[url]\nttl = \"1d\"\n[exact]\nttl = \"1h\"\n[near]\nttl = \"1h\"\n");
  h.Must({.url = "https://example.com/a", .time_ms = kT0, .text = Prose(8), .event_id = "a"});
  EXPECT_THAT(h.Must({.url = "https://example.com/a", .time_ms = kT0 + kDay, .text = Prose(8)}),
              IsDuplicateOf(Tier::kUrl, "a"));
  EngineHarness later("[url]\nttl = \"1d\"\n[exact]\nttl = \"1h\"\n[near]\nttl = \"1h\"\n");
  later.Must({.url = "https://example.com/a", .time_ms = kT0, .text = Prose(8), .event_id = "a"});
  EXPECT_THAT(
      later.Must({.url = "https://example.com/a", .time_ms = kT0 + kDay + 1, .text = Prose(8)}),
      IsUnique());
}

TEST(DeciderTest, DuplicatesSlideExpiryButKeepTheOrigin) {
  EngineHarness h("[exact]\nttl = \"1h\"\n[near]\nttl = \"1h\"\n");
  h.Must({.url = "https://example.com/1", .time_ms = kT0, .text = Prose(9), .event_id = "a"});
  // Matches at +50m and refreshes last_seen to +50m ...
  EXPECT_THAT(h.Must({.url = "https://example.com/2",
                      .time_ms = kT0 + 50 * kMinute,
                      .text = Prose(9),
                      .event_id = "b"}),
              IsDuplicateOf(Tier::kExact, "a"));
  // ... so at +1h40m, past a's own TTL, it is still a's duplicate.
  EXPECT_THAT(h.Must({.url = "https://example.com/3",
                      .time_ms = kT0 + 100 * kMinute,
                      .text = Prose(9),
                      .event_id = "c"}),
              IsDuplicateOf(Tier::kExact, "a"));
}

TEST(DeciderTest, ALateEventDoesNotMoveTheWatermarkBack) {
  EngineHarness h("[exact]\nttl = \"1h\"\n[near]\nttl = \"1h\"\n");
  h.Must({.url = "https://example.com/1", .time_ms = kT0, .text = Prose(10), .event_id = "a"});
  h.Must({.url = "https://example.com/other", .time_ms = kT0 + 3 * kHour, .text = Prose(11)});
  // Its own time is within a's TTL, but the watermark is not.
  EXPECT_THAT(
      h.Must({.url = "https://example.com/2", .time_ms = kT0 + 30 * kMinute, .text = Prose(10)}),
      IsUnique());
}

TEST(DeciderTest, ScopesNeverMatchEachOther) {
  EngineHarness h;
  h.Must({.url = "https://news.example.com/a", .text = Prose(12), .event_id = "a"});
  // Same site (registered domain), other host: compared.
  EXPECT_THAT(h.Must({.url = "https://www.example.com/b", .text = Prose(12)}),
              IsDuplicateOf(Tier::kExact, "a"));
  // Another site: not compared.
  Verdict other = h.Must({.url = "https://example.org/a", .text = Prose(12)});
  EXPECT_THAT(other, IsUnique());
  EXPECT_EQ(other.record.scope, "example.org");
}

TEST(DeciderTest, HostScopeSeparatesSubdomains) {
  EngineHarness h("[scope]\nkey = \"host\"\n");
  h.Must({.url = "https://news.example.com/a", .text = Prose(12)});
  Verdict v = h.Must({.url = "https://www.example.com/b", .text = Prose(12)});
  EXPECT_THAT(v, IsUnique());
  EXPECT_EQ(v.record.scope, "www.example.com");
}

TEST(DeciderTest, GlobalScopeCatchesSyndicationAcrossSites) {
  EngineHarness h("[scope]\nkey = \"global\"\n");
  h.Must({.url = "https://wire.example.com/story", .text = Prose(13), .event_id = "wire"});
  EXPECT_THAT(h.Must({.url = "https://paper.example.org/story", .text = Prose(13)}),
              IsDuplicateOf(Tier::kExact, "wire"));
}

// A pair of texts whose SimHashes differ by 4..6 bits, found by a seeded
// search so the test does not depend on one lucky edit.
std::pair<std::string, std::string> TextsAtDistance4To6(EngineHarness& probe) {
  const std::string base = Prose(14, 150);
  const uint64_t base_hash =
      *probe.Must({.url = "https://probe.example/base", .text = base}).record.fingerprints->simhash;
  for (int edits = 2; edits < 40; ++edits) {
    std::string edited = base;
    for (int k = 0; k < edits; ++k) edited = ReplaceWord(edited, 5 + 7 * k, "zeppelin");
    const uint64_t h =
        *probe.Must({.url = "https://probe.example/e" + std::to_string(edits), .text = edited})
             .record.fingerprints->simhash;
    const int d = fingerprint::HammingDistance(base_hash, h);
    if (d >= 4 && d <= 6) return {base, edited};
  }
  ADD_FAILURE() << "no edit gave a distance of 4..6";
  return {base, base};
}

// The SimHash method: a stored SimHash within max_distance bits.
constexpr char kSimHashOnly[] = "[near]\nmethod = \"simhash\"\n";

TEST(DeciderTest, PerSiteOverrideWidensNearMatching) {
  EngineHarness probe;
  auto [base, edited] = TextsAtDistance4To6(probe);

  EngineHarness strict(kSimHashOnly);
  strict.Must({.url = "https://forum.example.net/t/1", .text = base});
  EXPECT_THAT(strict.Must({.url = "https://forum.example.net/t/2", .text = edited}), IsUnique());

  EngineHarness lenient(std::string(kSimHashOnly) +
                        "[[near.overrides]]\npattern = \"*.example.net\"\nmax_distance = 6\n");
  lenient.Must({.url = "https://forum.example.net/t/1", .text = base, .event_id = "t1"});
  Verdict v = lenient.Must({.url = "https://forum.example.net/t/2", .text = edited});
  EXPECT_THAT(v, IsDuplicateOf(Tier::kNear, "t1"));
  // The override matched the host; another site keeps the default.
  lenient.Must({.url = "https://blog.example.com/p/1", .text = base});
  EXPECT_THAT(lenient.Must({.url = "https://blog.example.com/p/2", .text = edited}), IsUnique());
}

TEST(DeciderTest, OverridePatternsAlsoMatchTheRegisteredDomain) {
  EngineHarness probe;
  auto [base, edited] = TextsAtDistance4To6(probe);
  EngineHarness h(std::string(kSimHashOnly) +
                  "[[near.overrides]]\npattern = \"example.net\"\nmax_distance = 6\n");
  h.Must({.url = "https://a.b.example.net/1", .text = base, .event_id = "x"});
  EXPECT_THAT(h.Must({.url = "https://a.b.example.net/2", .text = edited}),
              IsDuplicateOf(Tier::kNear, "x"));
}

// The MinHash method: an edit the SimHash tables miss (4..6 bits) leaves
// most shingles in common, and the sketches say so.
TEST(DeciderTest, MinHashCatchesAnEditBeyondTheSimHashDistance) {
  EngineHarness probe;
  auto [base, edited] = TextsAtDistance4To6(probe);
  EngineHarness h;  // near.method = both, the default
  h.Must({.url = "https://example.net/1", .text = base, .event_id = "x"});
  Verdict v = h.Must({.url = "https://example.net/2", .text = edited});
  EXPECT_THAT(v, IsDuplicateOf(Tier::kNear, "x"));
  EXPECT_EQ(v.decision.method, NearMethod::kMinHash);
  ASSERT_TRUE(v.decision.similarity.has_value());
  EXPECT_GE(*v.decision.similarity, 0.8);
  EXPECT_GE(*v.decision.distance, 4);  // the SimHash distance is still reported
  const std::string json = EncodeVerdictJson(v);
  EXPECT_THAT(json, HasSubstr("\"method\":\"minhash\""));
  EXPECT_THAT(json, HasSubstr("\"similarity\":0."));
}

// A follow-up that repeats a third of an article shares a third of its
// shingles: similar, not a copy.
TEST(DeciderTest, AnArticleSharingAThirdOfAnotherIsNotANearDuplicate) {
  EngineHarness h;
  const std::string a = Prose(30, 300);
  std::string follow_up = Prose(31, 200);
  follow_up += " " + a.substr(0, a.size() / 3);
  h.Must({.url = "https://example.net/story", .text = a});
  Verdict v = h.Must({.url = "https://example.net/story-update", .text = follow_up});
  EXPECT_THAT(v, IsUnique());
}

// A syndicated copy that carries only the article, of an original that
// also keeps its comments: the copy's shingles are all in the original
// (containment 1), but its Jaccard with it is about 300 / 450, under
// near.jaccard. The containment rule finds it, says so in the verdict, and
// a site that turns it off does not.
TEST(DeciderTest, ACopyContainedInItsOriginalMatchesByContainment) {
  const std::string article = Prose(40, 300);
  const std::string original = article + "\n\n" + Prose(41, 150);  // and its comments
  EngineHarness h;
  h.Must({.url = "https://example.net/story", .text = original, .event_id = "o"});
  Verdict v = h.Must({.url = "https://example.net/partners/story", .text = article});
  EXPECT_THAT(v, IsDuplicateOf(Tier::kNear, "o"));
  ASSERT_TRUE(v.decision.similarity.has_value());
  EXPECT_LT(*v.decision.similarity, 0.8);  // the Jaccard rule alone would say unique
  ASSERT_TRUE(v.decision.containment.has_value());
  EXPECT_GE(*v.decision.containment, 0.95);
  EXPECT_THAT(EncodeVerdictJson(v), HasSubstr("\"containment\":"));

  EngineHarness strict("[[near.overrides]]\npattern = \"example.net\"\ncontainment = 0\n");
  strict.Must({.url = "https://example.net/story", .text = original});
  EXPECT_THAT(strict.Must({.url = "https://example.net/partners/story", .text = article}),
              IsUnique());
}

// An HTML page of one article (a paragraph per block of `text`) under `title`.
std::string HtmlPage(const std::string& title, const std::string& text) {
  std::string body = "<html><head><title>" + title + "</title></head><body><article>";
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find("\n\n", at);
    if (end == std::string::npos) end = text.size();
    body += "<p>" + text.substr(at, end - at) + "</p>";
    at = end + 2;
  }
  return body + "</article></body></html>";
}

// The copy is short (below content.short_text_tokens, here 200), its
// original long: only the copy's title is part of its identity. With title
// words in the sketch's set, the copy's set held a third of title features
// its original lacked, and neither rule found it (J 0.53, containment
// 0.71); the title is beside the set now, and it agrees.
TEST(DeciderTest, AShortCopyOfALongOriginalMatchesWhenTheTitlesAgree) {
  const std::string article = Prose(70, 150);
  const std::string original = article + "\n\n" + Prose(71, 60);  // 210 tokens
  EngineHarness h("[scope]\nkey = \"global\"\n[content]\nshort_text_tokens = 200\n");
  h.Must({.url = "https://wire.example.com/story",
          .body = HtmlPage("Linux video - Wire", original),
          .event_id = "o"});
  Verdict v = h.Must({.url = "https://paper.example.org/partners/story",
                      .body = HtmlPage("LINUX VIDEO", article)});
  EXPECT_THAT(v, IsDuplicateOf(Tier::kNear, "o"));
}

// The other way round: a short page of the site (an archive month) whose
// extracted text is the chrome a long article of the site also shows.
// Its text is contained in the article's, but its title names another
// page, and a short page's title is part of its identity.
TEST(DeciderTest, AShortPageInsideALongOneWithAnotherTitleIsUnique) {
  const std::string chrome = Prose(72, 150);
  EngineHarness h("[content]\nshort_text_tokens = 200\n");
  h.Must({.url = "https://example.net/story",
          .body = HtmlPage("Veteran wraps baby in flag", chrome + "\n\n" + Prose(73, 60))});
  Verdict v = h.Must({.url = "https://example.net/archive/2026/10",
                      .body = HtmlPage("Archive: October 2026", chrome + "\n\nNo articles.")});
  EXPECT_THAT(v, IsUnique());
}

// Two different articles in one template whose extracted texts keep the
// same long block (a sidebar, a disclaimer): a Jaccard of about 0.63,
// above containment_jaccard, but each page's own article is a quarter of
// it, so neither contains the other.
TEST(DeciderTest, PagesSharingALongBoilerplateBlockAreNotContained) {
  const std::string boilerplate = Prose(50, 400);
  EngineHarness h;
  h.Must({.url = "https://example.net/a", .text = boilerplate + "\n\n" + Prose(51, 120)});
  Verdict v =
      h.Must({.url = "https://example.net/b", .text = boilerplate + "\n\n" + Prose(52, 120)});
  EXPECT_THAT(v, IsUnique());
}

// A short page wholly quoted inside a much longer one (an article inside a
// digest of several): contained, but with a Jaccard of about 0.4, below
// near.containment_jaccard, which bounds how much larger the container may
// be. Lowering the floor lets it match. (containment = 0.8 in both: the
// estimated containment of a set 2.5 times smaller is about ±0.05, and
// this test is about the floor.)
TEST(DeciderTest, ContainmentNeedsTheJaccardFloor) {
  const std::string article = Prose(60, 200);
  const std::string digest = Prose(61, 300) + "\n\n" + article;
  EngineHarness h("[near]\ncontainment = 0.8\n");
  h.Must({.url = "https://example.net/digest", .text = digest, .event_id = "d"});
  EXPECT_THAT(h.Must({.url = "https://example.net/article", .text = article}), IsUnique());

  EngineHarness loose("[near]\ncontainment = 0.8\ncontainment_jaccard = 0.3\n");
  loose.Must({.url = "https://example.net/digest", .text = digest, .event_id = "d"});
  EXPECT_THAT(loose.Must({.url = "https://example.net/article", .text = article}),
              IsDuplicateOf(Tier::kNear, "d"));
}

TEST(DeciderTest, PerSiteJaccardOverrideNarrowsMinHashMatching) {
  EngineHarness probe;
  auto [base, edited] = TextsAtDistance4To6(probe);
  EngineHarness h("[[near.overrides]]\npattern = \"strict.example\"\njaccard = 0.999\n");
  h.Must({.url = "https://strict.example/1", .text = base});
  EXPECT_THAT(h.Must({.url = "https://strict.example/2", .text = edited}), IsUnique());
  h.Must({.url = "https://other.example/1", .text = base, .event_id = "o"});
  EXPECT_THAT(h.Must({.url = "https://other.example/2", .text = edited}),
              IsDuplicateOf(Tier::kNear, "o"));
}

// A text of a few repeated phrases has a SimHash but too few distinct
// shingles for a sketch: the SimHash rule judges it, and says so.
TEST(DeciderTest, PagesWithoutSketchesAreJudgedByTheirSimHashes) {
  EngineHarness h;
  std::string chant, chant2;
  for (int i = 0; i < 30; ++i) chant += "river council budget station ";
  chant2 = chant + "river council budget station";  // one more round: another text
  Verdict a = h.Must({.url = "https://example.net/c1", .text = chant, .event_id = "c1"});
  ASSERT_TRUE(a.record.fingerprints->simhash.has_value());
  ASSERT_TRUE(a.record.fingerprints->minhash.empty());
  Verdict b = h.Must({.url = "https://example.net/c2", .text = chant2});
  EXPECT_THAT(b, IsDuplicateOf(Tier::kNear, "c1"));
  EXPECT_EQ(b.decision.method, NearMethod::kSimHash);
  EXPECT_FALSE(b.decision.similarity.has_value());
}

TEST(DeciderTest, TheSimHashMethodIgnoresSketches) {
  EngineHarness probe;
  auto [base, edited] = TextsAtDistance4To6(probe);
  EngineHarness h(kSimHashOnly);
  h.Must({.url = "https://example.net/1", .text = base});
  EXPECT_THAT(h.Must({.url = "https://example.net/2", .text = edited}), IsUnique());
}

TEST(DeciderTest, TheMinHashMethodIgnoresCloseSimHashesWithoutSketches) {
  EngineHarness h("[near]\nmethod = \"minhash\"\n");
  std::string chant;
  for (int i = 0; i < 30; ++i) chant += "river council budget station ";
  h.Must({.url = "https://example.net/c1", .text = chant});
  // A near duplicate by SimHash (PagesWithoutSketchesAreJudgedByTheirSimHashes).
  EXPECT_THAT(
      h.Must({.url = "https://example.net/c2", .text = chant + "river council budget station"}),
      IsUnique());
}

TEST(DeciderTest, NotAcceptedStatusIsSkippedAndTouchesNoState) {
  EngineHarness h;
  Verdict skipped = h.Must({.url = "https://example.com/gone?utm_medium=x",
                            .time_ms = kT0 + kDay,
                            .text = Prose(15),
                            .status = 404});
  EXPECT_EQ(skipped.decision.kind, VerdictKind::kSkipped);
  EXPECT_EQ(skipped.record.canonical_url, "https://example.com/gone");
  EXPECT_FALSE(skipped.record.fingerprints.has_value());
  EXPECT_EQ(h.shard().watermark(), EventTime{});  // not even the watermark moved
  // The same URL and text later with 200: nothing was recorded.
  EXPECT_THAT(h.Must({.url = "https://example.com/gone", .text = Prose(15)}), IsUnique());
}

TEST(DeciderTest, AcceptStatusIsConfigurable) {
  EngineHarness h("accept_status = [200, 404]\n");
  EXPECT_THAT(h.Must({.url = "https://example.com/a", .text = Prose(16), .status = 404}),
              IsUnique());
  EXPECT_EQ(
      h.Must({.url = "https://example.com/b", .text = Prose(16), .status = 203}).decision.kind,
      VerdictKind::kSkipped);
}

TEST(DeciderTest, OversizedBodyIsFingerprintedOnItsPrefixAndMarkedTruncated) {
  EngineHarness h("max_body_bytes = 4096\n");
  const std::string page = "<html><body><article><p>" + Prose(17, 300) + "</p></article>";
  std::string big = page + std::string(10000, ' ') + "<p>tail text</p></body></html>";
  Verdict v = h.Must({.url = "https://example.com/big", .body = big});
  EXPECT_TRUE(v.record.truncated);
  Verdict small = h.Must({.url = "https://example.com/small", .body = page});
  EXPECT_FALSE(small.record.truncated);
}

TEST(DeciderTest, BadEventsAreRejectedWithAReason) {
  EngineHarness h;
  auto reason = [&](const std::string& json) {
    InputRecord record;
    record.value = json;
    record.default_event_id = "x";
    RecordPreparer preparer(h.options(), h.clock());
    StatusOr<PreparedRecord> p = preparer.Prepare(record);
    EXPECT_FALSE(p.ok()) << json;
    return p.ok() ? std::string() : p.status().message();
  };
  EXPECT_THAT(reason("{not json"), HasSubstr("invalid JSON"));
  EXPECT_THAT(reason("not json"), HasSubstr("not a JSON object"));
  EXPECT_THAT(reason(R"({"fetched_at": 1})"), HasSubstr("no 'url'"));
  EXPECT_THAT(reason(R"({"url": "ftp://example.com/", "fetched_at": 1})"), HasSubstr("url"));
  EXPECT_THAT(reason(R"({"url": "https://example.com/"})"), HasSubstr("no 'fetched_at'"));
  // The harness clock stands a year after kT0; two days ahead is refused.
  EXPECT_THAT(reason(R"({"url": "https://example.com/", "fetched_at": )" +
                     std::to_string(kT0 + 367 * kDay) + "}"),
              HasSubstr("ahead of the clock"));
}

TEST(DeciderTest, RecordTimestampStandsInForAMissingFetchedAt) {
  EngineHarness h;
  RecordPreparer preparer(h.options(), h.clock());
  InputRecord record;
  const std::string json = R"({"url": "https://example.com/"})";
  record.value = json;
  record.timestamp = EventTimeFromMillis(kT0 + 5);
  StatusOr<PreparedRecord> p = preparer.Prepare(record);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->event_time, EventTimeFromMillis(kT0 + 5));
}

TEST(DeciderTest, DefaultEventIdIsTheRecordPosition) {
  EngineHarness h;
  EXPECT_EQ(h.Must({.url = "https://example.com/", .text = Prose(18)}).record.event_id, "test:1");
}

TEST(DeciderTest, BloomModeAnswersUrlDuplicatesWithoutAnOrigin) {
  EngineHarness h("[url]\nmode = \"bloom\"\n");
  h.Must({.url = "https://example.com/a", .text = Prose(21)});
  Verdict v = h.Must({.url = "https://example.com/a", .text = Prose(22)});
  EXPECT_EQ(v.decision.kind, VerdictKind::kDuplicate);
  EXPECT_EQ(v.decision.tier, Tier::kUrl);
  EXPECT_FALSE(v.decision.duplicate_of.has_value());
}

TEST(DeciderTest, CheckContentInBloomModeIsAConfigError) {
  StatusOr<Config> config =
      Config::FromToml("[url]\nmode = \"bloom\"\non_revisit = \"check_content\"\n", "t");
  ASSERT_TRUE(config.ok());
  StatusOr<EngineOptions> options = EngineOptionsFromConfig(*config);
  ASSERT_FALSE(options.ok());
  EXPECT_THAT(options.status().message(), HasSubstr("url.mode = exact"));
}

}  // namespace
}  // namespace pagesieve::engine::testing
