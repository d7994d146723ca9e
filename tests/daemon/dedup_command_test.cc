// pagesieve dedup as users run it: the built binary over JSONL files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "run_process.h"
#include "test_events.h"

namespace pagesieve::testing {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

std::vector<Json> Lines(const std::string& text) {
  std::vector<Json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(Json::parse(line));
  return out;
}

TEST(DedupCommandTest, WritesOneVerdictPerGoodLineAndDeadLettersTheRest) {
  TempDir dir;
  const std::string input =
      TextEvent("https://a.example/1", kT0, ArticleText(1), "e1") + "this is not json\n" +
      TextEvent("https://a.example/1?utm_source=x", kT0 + 1, ArticleText(1), "e2") +
      "\n" +  // blank lines are skipped, not errors
      Json{{"url", "mailto:x@y"}, {"fetched_at", kT0}}.dump() + "\n" +
      TextEvent("https://a.example/2", kT0 + 2, ArticleText(2), "e3");
  WriteFile(dir.File("in.jsonl"), input);
  ProcessResult r = RunPagesieve({"dedup", "-q", "--input", dir.File("in.jsonl"), "--output",
                                  dir.File("out.jsonl"), "--dlq", dir.File("dlq.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  std::vector<Json> verdicts = Lines(ReadFile(dir.File("out.jsonl")));
  ASSERT_EQ(verdicts.size(), 3u);
  EXPECT_EQ(verdicts[0]["verdict"], "unique");
  EXPECT_EQ(verdicts[1]["verdict"], "duplicate");
  EXPECT_EQ(verdicts[1]["duplicate_of"]["event_id"], "e1");
  EXPECT_EQ(verdicts[2]["event_id"], "e3");

  std::vector<Json> dead = Lines(ReadFile(dir.File("dlq.jsonl")));
  ASSERT_EQ(dead.size(), 2u);
  EXPECT_EQ(dead[0]["line"], 2);
  EXPECT_EQ(dead[0]["record"], "this is not json");
  EXPECT_THAT(dead[0]["error"].get<std::string>(), HasSubstr("not a JSON object"));
  EXPECT_EQ(dead[1]["line"], 5);
  EXPECT_THAT(dead[1]["error"].get<std::string>(), HasSubstr("url"));
  EXPECT_EQ(dead[0]["file"], dir.File("in.jsonl"));
  EXPECT_THAT(r.err, HasSubstr("5 records"));
  EXPECT_THAT(r.err, HasSubstr("2 dead letters"));
}

TEST(DedupCommandTest, ReadsStdinAndWritesStdoutByDefault) {
  ProcessResult r =
      RunPagesieve({"dedup", "-q"}, TextEvent("https://a.example/", kT0, ArticleText(3), "x"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<Json> verdicts = Lines(r.out);
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0]["event_id"], "x");
}

TEST(DedupCommandTest, DefaultEventIdIsFileAndLine) {
  TempDir dir;
  WriteFile(dir.File("in.jsonl"),
            Json{{"url", "https://a.example/"}, {"fetched_at", kT0}}.dump() + "\n");
  ProcessResult r = RunPagesieve({"dedup", "-q", "-i", dir.File("in.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(r.out).at(0)["event_id"], dir.File("in.jsonl") + ":1");
}

std::string MixedInput() {
  std::string in;
  for (int i = 0; i < 40; ++i) {
    in += TextEvent("https://site" + std::to_string(i % 3) + ".example/p" + std::to_string(i % 17),
                    kT0 + i * 60'000, ArticleText(i % 11), "id" + std::to_string(i));
  }
  return in;
}

TEST(DedupCommandTest, TwoFreshRunsGiveIdenticalOutput) {
  TempDir dir;
  WriteFile(dir.File("in.jsonl"), MixedInput());
  ProcessResult a = RunPagesieve({"dedup", "-q", "-i", dir.File("in.jsonl")});
  ProcessResult b = RunPagesieve({"dedup", "-q", "-i", dir.File("in.jsonl"), "--threads", "1"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(Lines(a.out).size(), 40u);
}

TEST(DedupCommandTest, RerunningAFileIntoItsOwnStateGivesTheSameVerdicts) {
  TempDir dir;
  WriteFile(dir.File("in.jsonl"), MixedInput());
  const std::vector<std::string> args = {
      "dedup", "-q", "-i", dir.File("in.jsonl"), "--state-dir", dir.File("state")};
  ProcessResult first = RunPagesieve(args);
  ProcessResult again = RunPagesieve(args);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, first.out);
}

TEST(DedupCommandTest, ASecondRunContinuesFromTheStateOfTheFirst) {
  TempDir dir;
  WriteFile(dir.File("day1.jsonl"),
            TextEvent("https://a.example/story", kT0, ArticleText(4), "d1"));
  WriteFile(dir.File("day2.jsonl"),
            TextEvent("https://a.example/story-copy", kT0 + 86'400'000, ArticleText(4), "d2"));
  ASSERT_EQ(
      RunPagesieve({"dedup", "-q", "-i", dir.File("day1.jsonl"), "--state-dir", dir.File("state")})
          .exit_code,
      0);
  ProcessResult day2 =
      RunPagesieve({"dedup", "-q", "-i", dir.File("day2.jsonl"), "--state-dir", dir.File("state")});
  ASSERT_EQ(day2.exit_code, 0) << day2.err;
  Json v = Lines(day2.out).at(0);
  EXPECT_EQ(v["verdict"], "duplicate");
  EXPECT_EQ(v["duplicate_of"]["event_id"], "d1");
  // Without the state, the same file is all new.
  EXPECT_EQ(Lines(RunPagesieve({"dedup", "-q", "-i", dir.File("day2.jsonl")}).out).at(0)["verdict"],
            "unique");
}

TEST(DedupCommandTest, ConfigurationErrorsExitTwoWithOneClearLine) {
  ProcessResult r = RunPagesieve({"dedup", "--set", "url.ttl=soon"}, "");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("url.ttl"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(RunPagesieve({"dedup", "--set", "scope.key=planet"}, "").exit_code, 2);
}

TEST(DedupCommandTest, AnUnreadableInputFailsWithItsName) {
  ProcessResult r = RunPagesieve({"dedup", "-q", "-i", "/nonexistent/in.jsonl"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/in.jsonl"));
}

TEST(DedupCommandTest, AStateDirectoryInUseIsRefused) {
  TempDir dir;
  WriteFile(dir.File("in.jsonl"), MixedInput());
  // A second process holding the same shard: RocksDB's lock refuses it.
  const std::string fifo = dir.File("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const pid_t holder = fork();
  if (holder == 0) {
    // Reads from a FIFO nobody writes to: holds the state until killed.
    execl(PAGESIEVE_BINARY_DIR "/pagesieve", "pagesieve", "dedup", "-q", "-i", fifo.c_str(),
          "--state-dir", dir.File("state").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until the holder has opened the shard (its LOCK file exists).
  const std::string lock = dir.File("state") + "/dedup/LOCK";
  for (int i = 0; i < 200 && !std::filesystem::exists(lock); ++i) usleep(50'000);
  ProcessResult r =
      RunPagesieve({"dedup", "-q", "-i", dir.File("in.jsonl"), "--state-dir", dir.File("state")});
  kill(holder, SIGKILL);
  waitpid(holder, nullptr, 0);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("lock"));
}

}  // namespace
}  // namespace pagesieve::testing

namespace pagesieve::testing {
namespace {

TEST(GlobalConfigFlagsTest, FlagsBeforeTheSubcommandApplyToIt) {
  // A bad value given before the subcommand is read, not ignored.
  ProcessResult bad = RunPagesieve({"--set", "scope.key=planet", "dedup", "-q"}, "");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("scope.key"));
  // Both layers apply, the subcommand's last.
  const std::string event = Json{
      {"url", "https://www.example.com/a"},
      {"fetched_at", kT0},
      {"text", ArticleText(9)}}.dump();
  ProcessResult r = RunPagesieve(
      {"--set", "scope.key=global", "dedup", "-q", "--set", "url.strip_www=true"}, event + "\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Json v = Lines(r.out).at(0);
  EXPECT_EQ(v["scope"], "*");
  EXPECT_EQ(v["canonical_url"], "https://example.com/a");
}

}  // namespace
}  // namespace pagesieve::testing
