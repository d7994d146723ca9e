#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/time_format.h"
#include "engine/verdict.h"

namespace pagesieve::engine {
namespace {

Verdict NearDuplicate() {
  PreparedRecord r;
  r.event_id = "e2";
  r.url = "https://Example.com/a?utm_source=x";
  r.canonical_url = "https://example.com/a";
  r.scope = "example.com";
  Fingerprints f;
  f.url.bytes[0] = 0xab;
  f.content.bytes[15] = 0x01;
  f.payload = "sha1:AAAA";
  f.simhash = 0x00ff00ff00ff00ffULL;
  r.fingerprints = f;
  r.event_time = *ParseRfc3339("2026-11-20T10:05:00.250Z");
  store::Origin of;
  of.event_id = "e1";
  of.url = "https://example.com/b";
  of.event_time = *ParseRfc3339("2026-11-20T10:00:00Z");
  return Verdict{std::move(r), Decision::Duplicate(Tier::kNear, of, 2)};
}

TEST(VerdictJsonTest, DuplicateCarriesEveryField) {
  nlohmann::json j = nlohmann::json::parse(EncodeVerdictJson(NearDuplicate()));
  EXPECT_EQ(j["event_id"], "e2");
  EXPECT_EQ(j["url"], "https://Example.com/a?utm_source=x");
  EXPECT_EQ(j["canonical_url"], "https://example.com/a");
  EXPECT_EQ(j["scope"], "example.com");
  EXPECT_EQ(j["verdict"], "duplicate");
  EXPECT_EQ(j["tier"], "near");
  EXPECT_EQ(j["duplicate_of"]["event_id"], "e1");
  EXPECT_EQ(j["duplicate_of"]["url"], "https://example.com/b");
  EXPECT_EQ(j["duplicate_of"]["event_time"], "2026-11-20T10:00:00Z");
  EXPECT_EQ(j["distance"], 2);
  EXPECT_EQ(j["fingerprints"]["url"], "ab000000000000000000000000000000");
  EXPECT_EQ(j["fingerprints"]["content"], "00000000000000000000000000000001");
  EXPECT_EQ(j["fingerprints"]["payload"], "sha1:AAAA");
  EXPECT_EQ(j["fingerprints"]["simhash"], "00ff00ff00ff00ff");
  EXPECT_EQ(j["event_time"], "2026-11-20T10:05:00.250Z");
  EXPECT_FALSE(j.contains("source"));
  EXPECT_FALSE(j.contains("truncated"));
}

TEST(VerdictJsonTest, ANearDuplicateSaysHowItWasJudged) {
  Verdict v = NearDuplicate();
  v.decision = Decision::Near(*v.decision.duplicate_of, 9, 0.87654, NearMethod::kMinHash);
  nlohmann::json j = nlohmann::json::parse(EncodeVerdictJson(v));
  EXPECT_EQ(j["tier"], "near");
  EXPECT_EQ(j["distance"], 9);
  EXPECT_DOUBLE_EQ(j["similarity"].get<double>(), 0.877);  // three decimals
  EXPECT_EQ(j["method"], "minhash");
  // Only near duplicates have a method and a similarity.
  nlohmann::json exact = nlohmann::json::parse(EncodeVerdictJson(
      Verdict{v.record, Decision::Duplicate(Tier::kExact, v.decision.duplicate_of, 0)}));
  EXPECT_TRUE(exact["similarity"].is_null());
  EXPECT_TRUE(exact["method"].is_null());
}

TEST(VerdictJsonTest, UniqueHasNullDecisionFields) {
  Verdict v = NearDuplicate();
  v.decision = Decision::Unique();
  v.record.fingerprints->simhash.reset();
  nlohmann::json j = nlohmann::json::parse(EncodeVerdictJson(v));
  EXPECT_EQ(j["verdict"], "unique");
  EXPECT_TRUE(j["tier"].is_null());
  EXPECT_TRUE(j["duplicate_of"].is_null());
  EXPECT_TRUE(j["distance"].is_null());
  EXPECT_TRUE(j["fingerprints"]["simhash"].is_null());
}

TEST(VerdictJsonTest, SkippedHasNoFingerprintsButItsStatus) {
  PreparedRecord r;
  r.status = 404;
  Verdict v{r, Decision::Skipped()};
  nlohmann::json j = nlohmann::json::parse(EncodeVerdictJson(v));
  EXPECT_EQ(j["verdict"], "skipped");
  EXPECT_TRUE(j["fingerprints"].is_null());
  EXPECT_EQ(j["status"], 404);
}

TEST(VerdictJsonTest, KafkaSourceAndTruncationAppearWhenSet) {
  Verdict v = NearDuplicate();
  v.record.source = SourcePosition{"pages", PartitionId(3), Offset(12345)};
  v.record.truncated = true;
  nlohmann::json j = nlohmann::json::parse(EncodeVerdictJson(v));
  EXPECT_EQ(j["source"]["topic"], "pages");
  EXPECT_EQ(j["source"]["partition"], 3);
  EXPECT_EQ(j["source"]["offset"], 12345);
  EXPECT_EQ(j["truncated"], true);
}

TEST(VerdictJsonTest, ALateVerdictSaysSoAndOthersLeaveItOut) {
  Verdict v = NearDuplicate();
  EXPECT_FALSE(nlohmann::json::parse(EncodeVerdictJson(v)).contains("late"));
  v.late = true;
  EXPECT_EQ(nlohmann::json::parse(EncodeVerdictJson(v))["late"], true);
}

TEST(VerdictJsonTest, InvalidUtf8InAnIdIsReplacedNotThrown) {
  Verdict v = NearDuplicate();
  v.record.event_id = "file\xff:1";
  nlohmann::json j = nlohmann::json::parse(EncodeVerdictJson(v));
  EXPECT_EQ(j["event_id"], "file\xef\xbf\xbd:1");
}

TEST(VerdictJsonTest, EqualVerdictsEncodeToEqualBytes) {
  EXPECT_EQ(EncodeVerdictJson(NearDuplicate()), EncodeVerdictJson(NearDuplicate()));
}

}  // namespace
}  // namespace pagesieve::engine
