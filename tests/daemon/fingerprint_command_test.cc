#include "commands/fingerprint_command.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "run_process.h"

namespace pagesieve::commands {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

const std::string kArticle =
    "<html><head><title>Budget news</title></head><body><article><h1>Budget news</h1>"
    "<p>The committee met on Tuesday to discuss the budget for the coming year and agreed "
    "after a long debate that the library would stay open on weekends.</p></article></body></html>";

std::vector<nlohmann::json> RunEvents(const std::string& input, size_t* errors = nullptr) {
  fingerprint::Fingerprinter fingerprinter{fingerprint::FingerprintOptions{}};
  std::istringstream in(input);
  std::ostringstream out;
  size_t error_count = FingerprintEvents(fingerprinter, engine::EventFieldNames{}, in, out);
  if (errors != nullptr) *errors = error_count;
  std::vector<nlohmann::json> lines;
  std::istringstream written(out.str());
  std::string line;
  while (std::getline(written, line)) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

std::string Event(const nlohmann::json& fields) { return fields.dump() + "\n"; }

TEST(FingerprintEventsTest, OneOutputLinePerInputLineInOrder) {
  size_t errors = 0;
  std::vector<nlohmann::json> lines =
      RunEvents(Event({{"url", "http://a.example/1"}, {"body", kArticle}}) + "not json\n" + "\n" +
                    Event({{"url", "http://a.example/2"}, {"body", "x"}}),
                &errors);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0]["url"], "http://a.example/1");
  EXPECT_EQ(lines[1]["line"], 2);
  EXPECT_TRUE(lines[1].contains("error"));
  EXPECT_EQ(lines[2]["line"], 3);
  EXPECT_EQ(lines[3]["url"], "http://a.example/2");
  EXPECT_EQ(errors, 2u);
}

TEST(FingerprintEventsTest, PrintsEveryDocumentedField) {
  std::vector<nlohmann::json> lines = RunEvents(Event(
      {{"url", "HTTP://A.example:80/x#f"}, {"content_type", "text/html"}, {"body", kArticle}}));
  ASSERT_EQ(lines.size(), 1u);
  const nlohmann::json& j = lines[0];
  EXPECT_EQ(j["url"], "HTTP://A.example:80/x#f");
  EXPECT_EQ(j["canonical_url"], "http://a.example/x");
  EXPECT_TRUE(j["title"].is_string());
  EXPECT_TRUE(j["text"].is_string());
  EXPECT_TRUE(j["tokens"].is_number_unsigned());
  EXPECT_EQ(j["truncated"], false);
  const nlohmann::json& f = j["fingerprints"];
  EXPECT_EQ(f["url"], fingerprint::Sha256Digest128("http://a.example/x").Hex());
  EXPECT_THAT(f["content"].get<std::string>(), MatchesRegex("[0-9a-f]{32}"));
  EXPECT_EQ(f["payload"], fingerprint::PayloadDigest(kArticle));
  EXPECT_TRUE(f["simhash"].is_null()) << "a 25-word page is below near.min_tokens";
  EXPECT_TRUE(f["minhash"].is_null()) << "no sketch below near.min_tokens either";
}

TEST(FingerprintEventsTest, SimHashIsSixteenHexDigits) {
  std::string words;
  for (int i = 0; i < 80; ++i) words += "word" + std::to_string(i) + " ";
  std::vector<nlohmann::json> lines =
      RunEvents(Event({{"url", "http://a.example/"}, {"text", words}}));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_THAT(lines[0]["fingerprints"]["simhash"].get<std::string>(), MatchesRegex("[0-9a-f]{16}"));
  // 256 slots of 8 bits and an 8-byte header: 264 bytes, 528 hex digits.
  EXPECT_THAT(lines[0]["fingerprints"]["minhash"].get<std::string>(),
              MatchesRegex("[0-9a-f]{528}"));
}

TEST(FingerprintEventsTest, UsesPreExtractedTextAndDecodedBase64Body) {
  std::vector<nlohmann::json> lines = RunEvents(Event({{"url", "http://a.example/"},
                                                       {"body_base64", "AAEC/w=="},
                                                       {"text", "Given text"},
                                                       {"event_id", "e-1"}}));
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["text"], "Given text");
  EXPECT_EQ(lines[0]["event_id"], "e-1");
  EXPECT_EQ(lines[0]["fingerprints"]["payload"],
            fingerprint::PayloadDigest(std::string("\x00\x01\x02\xff", 4)));
}

TEST(FingerprintEventsTest, UncanonicalizableUrlIsAnErrorLine) {
  size_t errors = 0;
  std::vector<nlohmann::json> lines =
      RunEvents(Event({{"url", "mailto:someone@example.com"}, {"body", "x"}}), &errors);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["line"], 1);
  EXPECT_THAT(lines[0]["error"].get<std::string>(), HasSubstr("url"));
  EXPECT_EQ(errors, 1u);
}

TEST(FingerprintEventsTest, CarriageReturnLineEndingsAreAccepted) {
  size_t errors = 0;
  std::vector<nlohmann::json> lines =
      RunEvents("{\"url\": \"http://a.example/\", \"body\": \"x\"}\r\n", &errors);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(errors, 0u);
}

TEST(FingerprintToJsonTest, InvalidUtf8InTextDoesNotThrow) {
  fingerprint::PageFingerprint fp;
  fp.text = "bad \xff byte";
  EXPECT_THAT(DumpJson(FingerprintToJson("http://a.example/", fp)), HasSubstr("bad"));
}

struct BinaryRun {
  int exit_code;
  std::string output;  // standard output, then standard error
};

// Runs the built binary: `pagesieve fingerprint <args>` with `input` on stdin.
BinaryRun RunBinary(std::vector<std::string> args, const std::string& input) {
  args.insert(args.begin(), "fingerprint");
  const pagesieve::testing::ProcessResult run = pagesieve::testing::RunPagesieve(args, input);
  return {run.exit_code, run.out + run.err};
}

TEST(FingerprintBinaryTest, FingerprintsOnePageFromStandardInput) {
  BinaryRun run = RunBinary({"--url", "http://a.example/page"}, kArticle);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  nlohmann::json j = nlohmann::json::parse(run.output);
  EXPECT_EQ(j["canonical_url"], "http://a.example/page");
  EXPECT_EQ(j["fingerprints"]["payload"], fingerprint::PayloadDigest(kArticle));
}

TEST(FingerprintBinaryTest, ReadsEventsWithInputDash) {
  BinaryRun run = RunBinary({"--input", "-"}, Event({{"url", "http://a.example/"}, {"body", "x"}}));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr("\"canonical_url\":\"http://a.example/\""));
}

TEST(FingerprintBinaryTest, BadLinesMakeTheExitCodeOne) {
  BinaryRun run = RunBinary({"--input", "-"}, "oops\n");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.output, HasSubstr("\"line\":1"));
}

TEST(FingerprintBinaryTest, MissingUrlIsAUsageError) {
  BinaryRun run = RunBinary({}, "");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_THAT(run.output, HasSubstr("--url"));
}

TEST(FingerprintBinaryTest, BadUrlIsAUsageError) {
  BinaryRun run = RunBinary({"--url", "not a url"}, "body");
  EXPECT_EQ(run.exit_code, 2);
}

TEST(FingerprintBinaryTest, UrlAndInputExcludeEachOther) {
  BinaryRun run = RunBinary({"--url", "http://a.example/", "--input", "-"}, "");
  EXPECT_EQ(run.exit_code, 2);
}

}  // namespace
}  // namespace pagesieve::commands
