// pagesieve state stats|lookup as operators run it: the built binary over a
// state directory that `pagesieve dedup` filled from a small crawl.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "fingerprint/version.h"
#include "run_process.h"
#include "store/shard_options.h"
#include "store/state_env.h"
#include "test_events.h"

namespace pagesieve::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

constexpr int64_t kDay = 86'400'000;

// The crawl, in order (offsets 0..5). e0 is 40 days older than the rest, so
// every entry it left has expired at the final watermark (kT0 + 4 s).
std::string Crawl() {
  return TextEvent("https://a.example/old", kT0 - 40 * kDay, ArticleText(3), "e0") +
         TextEvent("https://a.example/1", kT0, ArticleText(1), "e1") +
         TextEvent("https://a.example/1?utm_source=x", kT0 + 1000, ArticleText(1),
                   "e2") +                                                     // URL dup
         TextEvent("https://a.example/2", kT0 + 2000, ArticleText(1), "e3") +  // exact dup of e1
         TextEvent("https://a.example/3", kT0 + 3000, ArticleText(2), "e4") +
         TextEvent("https://b.example/1", kT0 + 4000, ArticleText(4), "e5");
}

std::vector<Json> Lines(const std::string& text) {
  std::vector<Json> out;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
    out.push_back(Json::parse(text.substr(start, nl - start)));
  }
  return out;
}

// One state directory for the whole suite: every test only reads it (that
// `state` writes nothing is itself tested in tests/unit/store).
class StateCommandTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    WriteFile(dir_->File("crawl.jsonl"), Crawl());
    ProcessResult r = RunPagesieve({"dedup", "-q", "-i", dir_->File("crawl.jsonl"), "-o",
                                    dir_->File("verdicts.jsonl"), "--state-dir", State()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    verdicts_ = new std::vector<Json>(Lines(ReadFile(dir_->File("verdicts.jsonl"))));
    ASSERT_EQ(verdicts_->size(), 6u);
  }
  static void TearDownTestSuite() {
    delete verdicts_;
    delete dir_;
  }
  static std::string State() { return dir_->File("state"); }

  static ProcessResult State(std::vector<std::string> args) {
    args.insert(args.begin(), {"state", "--state-dir", State()});
    return RunPagesieve(args);
  }
  static Json StateJson(std::vector<std::string> args) {
    args.push_back("--json");
    ProcessResult r = State(std::move(args));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? Json::parse(r.out) : Json();
  }
  static const Json& Verdict(int i) { return (*verdicts_)[i]; }

  static TempDir* dir_;
  static std::vector<Json>* verdicts_;
};

TempDir* StateCommandTest::dir_ = nullptr;
std::vector<Json>* StateCommandTest::verdicts_ = nullptr;

TEST_F(StateCommandTest, TheCrawlGaveTheVerdictsTheseTestsExplain) {
  EXPECT_EQ(Verdict(2)["tier"], "url");
  EXPECT_EQ(Verdict(3)["tier"], "exact");
  EXPECT_EQ(Verdict(3)["duplicate_of"]["event_id"], "e1");
  EXPECT_EQ(Verdict(4)["verdict"], "unique");
}

TEST_F(StateCommandTest, StatsPrintsOffsetWatermarkVersionAndEntriesPerShard) {
  ProcessResult r = State({"stats"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("shard dedup"));
  EXPECT_THAT(r.out, HasSubstr("checkpointed offset  6 (next input offset)"));
  EXPECT_THAT(r.out, HasSubstr("watermark            2026-10-01T00:00:04Z"));
  EXPECT_THAT(
      r.out, HasSubstr("fingerprint version  " + std::to_string(fingerprint::kFingerprintVersion)));
  EXPECT_THAT(r.out, HasSubstr("RocksDB estimate"));
  EXPECT_THAT(r.out, HasSubstr("url bloom filter"));
  // The LSH bands of the default sketches (256 slots of 8 bits) for the
  // lowest Jaccard the default rule accepts: near.containment_jaccard 0.6.
  EXPECT_THAT(r.out, HasSubstr("lsh bands            33 of 4 rows for jaccard 0.6"));
}

TEST_F(StateCommandTest, StatsJsonCountsStoredAndLiveEntries) {
  const Json j = StateJson({"stats", "--count"});
  ASSERT_EQ(j["shards"].size(), 1u);
  const Json& s = j["shards"][0];
  EXPECT_EQ(s["name"], "dedup");
  EXPECT_EQ(s["checkpointed_offset"], 6);
  EXPECT_EQ(s["watermark"], "2026-10-01T00:00:04Z");
  EXPECT_EQ(s["fingerprint_version"], fingerprint::kFingerprintVersion);
  // Five URLs (e2 is e1's URL), four texts; e0's entries are expired.
  EXPECT_EQ(s["entries"]["url"]["stored"], 5);
  EXPECT_EQ(s["entries"]["url"]["live"], 4);
  EXPECT_EQ(s["entries"]["exact"]["stored"], 4);
  EXPECT_EQ(s["entries"]["exact"]["live"], 3);
  EXPECT_EQ(s["entries"]["near"]["stored"], 4);
  EXPECT_EQ(s["entries"]["near"]["live"], 3);
  EXPECT_EQ(s["lsh_bands"]["bands"], 33);  // for near.containment_jaccard 0.6
  EXPECT_EQ(s["lsh_bands"]["rows"], 4);
  // The live near entries whose sketch the bands index: those of pages long
  // enough to sketch (near.minhash_min_shingles).
  ASSERT_TRUE(s["entries"]["near"]["banded"].is_number());
  EXPECT_LE(s["entries"]["near"]["banded"].get<int>(), 3);
  // pagesieve dedup's shard holds every index row of its live entries.
  const Json& rows = s["entries"]["near"]["index_rows"];
  EXPECT_EQ(rows["simhash"], rows["simhash_of"]);
  EXPECT_EQ(rows["simhash_of"].get<int>(), 3 * s["simhash_tables"]["tables"].get<int>());
  EXPECT_EQ(rows["lsh"], rows["lsh_of"]);
  EXPECT_EQ(rows["lsh_of"].get<int>(), 33 * s["entries"]["near"]["banded"].get<int>());
  // Not a routed near owner's shard: every stored near entry is whole.
  EXPECT_EQ(s["entries"]["near"]["whole"], 4);
  EXPECT_GT(s["disk_bytes"].get<uint64_t>(), 0u);
  EXPECT_GT(s["url_bloom"]["fill_ratio"].get<double>(), 0.0);
}

// "Why was e2 called a duplicate?" Its URL, canonicalized, is e1's.
TEST_F(StateCommandTest, LookupUrlOfAUrlDuplicateShowsTheOriginalEvent) {
  const Json j = StateJson({"lookup", "--url", "https://a.example/1?utm_source=x"});
  EXPECT_EQ(j["key"]["canonical_url"], "https://a.example/1");
  EXPECT_EQ(j["key"]["url_digest"], Verdict(2)["fingerprints"]["url"]);
  EXPECT_EQ(j["key"]["scope"], Verdict(2)["scope"]);
  ASSERT_EQ(j["shards"].size(), 1u);
  const Json& url = j["shards"][0]["url"];
  EXPECT_EQ(url["entry"]["origin"]["event_id"], "e1");
  EXPECT_EQ(url["entry"]["origin"]["offset"], 1);
  EXPECT_EQ(url["entry"]["last_seen"], "2026-10-01T00:00:01Z");  // e2 touched it
  EXPECT_EQ(url["entry"]["live"], true);
  EXPECT_EQ(url["would_match"]["event_id"], "e1");
  EXPECT_EQ(url["bloom_may_contain"], true);
}

// "Why was e3 called a duplicate?" Its URL is new; its content is e1's.
TEST_F(StateCommandTest, LookupUrlFollowsTheLastContentToWhereItWasFirstSeen) {
  ProcessResult r = State({"lookup", "--url", "https://a.example/2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("origin        event e3, https://a.example/2"));
  const std::string content = Verdict(3)["fingerprints"]["content"];
  EXPECT_THAT(r.out, HasSubstr("last content  " + content));
  EXPECT_THAT(r.out, HasSubstr("content " + content + ": live"));
  // (pagesieve dedup's "partition" is a number naming the input file.)
  EXPECT_THAT(r.out, ::testing::MatchesRegex(
                         ".*origin +event e1, https://a.example/1, 2026-10-01T00:00:00Z, "
                         "partition [0-9]+, offset 1\n.*"));
  EXPECT_THAT(r.out, HasSubstr("exact duplicate of event e1"));
}

TEST_F(StateCommandTest, LookupContentByDigestShowsItsOrigin) {
  const Json j = StateJson({"lookup", "--content", Verdict(4)["fingerprints"]["content"], "--scope",
                            Verdict(4)["scope"]});
  ASSERT_EQ(j["shards"].size(), 1u);
  EXPECT_EQ(j["shards"][0]["content"]["entry"]["origin"]["event_id"], "e4");
  EXPECT_EQ(j["shards"][0]["content"]["would_match"]["event_id"], "e4");
}

TEST_F(StateCommandTest, LookupSimHashFindsAStoredOneAtItsDistance) {
  uint64_t simhash =
      std::stoull(Verdict(4)["fingerprints"]["simhash"].get<std::string>(), nullptr, 16);
  simhash ^= uint64_t{1} << 17;  // one bit away
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(simhash));
  // --url of another page of the site gives the scope.
  const Json j = StateJson({"lookup", "--simhash", hex, "--url", "https://a.example/9"});
  ASSERT_EQ(j["shards"].size(), 1u);
  const Json& near = j["shards"][0]["near"];
  EXPECT_EQ(near["max_distance"], 3);
  ASSERT_GE(near["matches"].size(), 1u);
  const Json& m = near["matches"][0];
  EXPECT_EQ(m["simhash"], Verdict(4)["fingerprints"]["simhash"]);
  EXPECT_EQ(m["distance"], 1);
  EXPECT_EQ(m["origin"]["event_id"], "e4");
  EXPECT_EQ(m["engine_answer"], true);
  // 264 bytes (256 slots of 8 bits), or null for a page too short to
  // sketch; with the size of the set it sketches.
  ASSERT_TRUE(m.contains("sketch_bytes"));
  EXPECT_TRUE(m["sketch_bytes"].is_null() || m["sketch_bytes"] == 264) << m["sketch_bytes"];
  EXPECT_EQ(m["sketch_bytes"].is_null(), m["sketch_features"].is_null()) << m;
  if (!m["sketch_features"].is_null()) {
    EXPECT_GT(m["sketch_features"].get<int>(), 0) << m;
  }
}

TEST_F(StateCommandTest, ExpiredEntriesAreShownAndMarkedExpired) {
  ProcessResult r = State({"lookup", "--url", "https://a.example/old"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("url entry       EXPIRED"));
  EXPECT_THAT(r.out, HasSubstr("event e0"));
  EXPECT_THAT(r.out, Not(HasSubstr("matches")));  // nothing would match it now

  const std::string simhash = Verdict(0)["fingerprints"]["simhash"];
  const Json j = StateJson({"lookup", "--simhash", simhash, "--scope", "a.example"});
  ASSERT_EQ(j["shards"].size(), 1u);
  const Json& m = j["shards"][0]["near"]["matches"][0];
  EXPECT_EQ(m["origin"]["event_id"], "e0");
  EXPECT_EQ(m["live"], false);
  EXPECT_EQ(m["engine_answer"], false);
}

TEST_F(StateCommandTest, NotFoundIsSaidPlainlyAndExitsZero) {
  ProcessResult r = State({"lookup", "--url", "https://nowhere.example/x"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("not found in 1 shard under " + State()));
  const Json j = StateJson({"lookup", "--url", "https://nowhere.example/x"});
  EXPECT_EQ(j["found"], false);
  EXPECT_EQ(j["shards_searched"], 1);
}

TEST_F(StateCommandTest, BadInputExitsTwoWithOneLine) {
  const std::vector<std::vector<std::string>> bad = {
      {"lookup", "--simhash", "zz", "--scope", "a.example"},
      {"lookup", "--simhash", "0123456789abcdef0", "--scope", "a.example"},
      {"lookup", "--content", "abc", "--scope", "a.example"},
      {"lookup", "--simhash", "ff"},  // no scope
      {"lookup"},
      {"lookup", "--url", "mailto:someone@example.com"},
      {"lookup", "--url", "https://a.example/", "--max-distance", "65"},
      {"stats", "--shard", "pages-7"},
  };
  for (const auto& args : bad) {
    ProcessResult r = State(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << r.err;
    EXPECT_THAT(r.err, HasSubstr("pagesieve: "));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  ProcessResult missing = RunPagesieve({"state", "--state-dir", dir_->File("nope"), "stats"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("does not exist"));
}

TEST_F(StateCommandTest, ShardFlagAndTrailingFlagsSelectOneShard) {
  TempDir two;
  std::filesystem::copy(State(), two.File("state"), std::filesystem::copy_options::recursive);
  std::filesystem::rename(two.File("state/dedup"), two.File("state/pages-0"));
  std::filesystem::copy(State() + "/dedup", two.File("state/pages-1"),
                        std::filesystem::copy_options::recursive);
  ProcessResult all = RunPagesieve({"state", "--state-dir", two.File("state"), "stats"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_THAT(all.out, HasSubstr("shard pages-0"));
  EXPECT_THAT(all.out, HasSubstr("shard pages-1"));
  // Flags of `state` may also follow the subcommand.
  ProcessResult one =
      RunPagesieve({"state", "stats", "--state-dir", two.File("state"), "--shard", "pages-1"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_THAT(one.out, HasSubstr("shard pages-1"));
  EXPECT_THAT(one.out, Not(HasSubstr("shard pages-0")));
  // Without --shard a lookup searches every shard.
  ProcessResult lookup = RunPagesieve(
      {"state", "--state-dir", two.File("state"), "lookup", "--url", "https://a.example/1"});
  ASSERT_EQ(lookup.exit_code, 0) << lookup.err;
  EXPECT_THAT(lookup.out, HasSubstr("shard pages-0"));
  EXPECT_THAT(lookup.out, HasSubstr("shard pages-1"));
}

TEST_F(StateCommandTest, WorksWhileAnotherPagesieveHoldsTheShard) {
  store::StateEnvOptions env_options;
  env_options.dir = State();
  env_options.block_cache_bytes = 8 << 20;
  env_options.write_buffer_bytes = 8 << 20;
  auto env = store::StateEnv::Create(env_options);
  ASSERT_TRUE(env.ok());
  store::ShardOptions shard_options;
  // The version pagesieve dedup wrote it with: another one is refused.
  shard_options.fingerprint_version = fingerprint::kFingerprintVersion;
  auto held = (*env)->OpenShardAt(State() + "/dedup", shard_options);
  ASSERT_TRUE(held.ok()) << held.status().ToString();  // holds RocksDB's LOCK

  ProcessResult r = State({"stats"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("checkpointed offset  6"));
  // The same shard cannot be opened for writing twice: the lock is real.
  ProcessResult dedup = RunPagesieve({"dedup", "-q", "-i", dir_->File("crawl.jsonl"), "-o",
                                      dir_->File("again.jsonl"), "--state-dir", State()});
  EXPECT_NE(dedup.exit_code, 0);
}

}  // namespace
}  // namespace pagesieve::testing
