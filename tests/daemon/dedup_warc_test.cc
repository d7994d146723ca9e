// pagesieve dedup over WARC files: real crawlers' files and files written
// here with every kind of damage, through the built binary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fingerprint/base32.h"
#include "fingerprint/digests.h"
#include "run_process.h"
#include "warc/header_fields.h"
#include "warc/record_reader.h"
#include "warc_writer.h"

namespace pagesieve::testing {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

const char* const kRealFiles[] = {"example.warc.gz", "example-iana.org-chunked.warc",
                                  "example-wget-bad-target-uri.warc.gz", "post-test.warc.gz"};

std::string RealWarc(const std::string& name) {
  return PAGESIEVE_SOURCE_DIR "/tests/data/warc/" + name;
}

std::vector<Json> Lines(const std::string& text) {
  std::vector<Json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(Json::parse(line));
  return out;
}

// WARC-Record-ID → WARC-Payload-Digest of every response record, as the
// writer recorded them (base16 SHA-1s, as warcprox wrote them, re-encoded).
std::map<std::string, std::string> RecordedDigests() {
  std::map<std::string, std::string> out;
  for (const char* name : kRealFiles) {
    std::FILE* f = std::fopen(RealWarc(name).c_str(), "rb");
    const bool gz = std::string(name).ends_with(".gz");
    warc::RecordReader reader(gz ? warc::GzipInput(f, name) : warc::PlainInput(f, name), {});
    for (;;) {
      StatusOr<std::optional<warc::WarcRecord>> r = reader.Next();
      if (!r.ok() || !r->has_value()) break;
      if ((*r)->type != "response") continue;
      StatusOr<warc::HeaderFields> fields =
          warc::HeaderFields::Parse(warc::SplitHeader((*r)->bytes)->fields);
      std::string digest(fields->Get("WARC-Payload-Digest").value_or(""));
      if (digest.size() == 45) {  // "sha1:" + 40 hex digits
        std::string raw;
        for (size_t i = 5; i < 45; i += 2) {
          raw.push_back(static_cast<char>(std::stoi(digest.substr(i, 2), nullptr, 16)));
        }
        digest = "sha1:" + fingerprint::Base32Encode(raw);
      }
      out[std::string(fields->Get("WARC-Record-ID").value_or(""))] = digest;
    }
    std::fclose(f);
  }
  return out;
}

TEST(DedupWarcTest, RealCrawlerFilesGiveAVerdictPerResponseWithTheRecordedPayloadDigest) {
  TempDir dir;
  std::vector<std::string> args = {"dedup", "-q", "--output", dir.File("out.jsonl")};
  for (const char* name : kRealFiles) {
    args.push_back("--input");
    args.push_back(RealWarc(name));
  }
  ProcessResult r = RunPagesieve(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::map<std::string, std::string> recorded = RecordedDigests();
  const std::vector<Json> verdicts = Lines(ReadFile(dir.File("out.jsonl")));
  ASSERT_EQ(verdicts.size(), recorded.size());
  ASSERT_EQ(verdicts.size(), 6u);
  for (const Json& v : verdicts) {
    const std::string id = v["event_id"];
    ASSERT_TRUE(recorded.count(id)) << id;
    EXPECT_EQ(v["fingerprints"]["payload"], recorded.at(id)) << id;
  }
  // wget's WARC/1.0 brackets around the URI are not part of it.
  EXPECT_EQ(verdicts[2]["url"], "http://example.com/");
  EXPECT_THAT(r.err, HasSubstr("6 responses, 1 revisits (not decided)"));
  EXPECT_THAT(r.err, HasSubstr("7 request"));
  EXPECT_THAT(r.err, HasSubstr("1 metadata"));
  EXPECT_THAT(r.err, HasSubstr("4 warcinfo"));
}

std::string Response(const std::string& uri, const std::string& id,
                     std::vector<std::pair<std::string, std::string>> headers,
                     const std::string& payload, const std::string& date = "2024-05-01T12:00:00Z") {
  WarcRecordSpec spec;
  spec.target_uri = uri;
  spec.record_id = id;
  spec.date = date;
  headers.insert(headers.begin(), {"Content-Type", "text/html; charset=utf-8"});
  spec.block = HttpResponseBlock(200, headers, payload);
  return GzipMember(WarcRecordBytes(spec));
}

TEST(DedupWarcTest, OnePageStoredPlainGzipAndBrotliIsOneExactDuplicateWithWhatARevisitNeeds) {
  TempDir dir;
  const std::string html = HtmlPage(11);
  const std::string gz = GzipMember(html), br = BrotliCompress(html);
  WriteFile(dir.File("crawl.warc.gz"),
            Response("https://a.example/plain", "<urn:uuid:1>", {}, html, "2024-05-01T12:00:00Z") +
                Response("https://b.example/gz", "<urn:uuid:2>", {{"Content-Encoding", "gzip"}}, gz,
                         "2024-05-02T12:00:00Z") +
                Response("https://c.example/br", "<urn:uuid:3>",
                         {{"Content-Encoding", "br"}, {"Transfer-Encoding", "chunked"}},
                         Chunked(br, 500), "2024-05-03T12:00:00Z"));
  ProcessResult r = RunPagesieve({"dedup", "-q", "--set", "scope.key=global", "--input",
                                  dir.File("crawl.warc.gz"), "--output", dir.File("out.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<Json> v = Lines(ReadFile(dir.File("out.jsonl")));
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0]["verdict"], "unique");
  for (int i : {1, 2}) {
    EXPECT_EQ(v[i]["verdict"], "duplicate") << i;
    EXPECT_EQ(v[i]["tier"], "exact") << i;
    // WARC-Refers-To, WARC-Refers-To-Target-URI, WARC-Refers-To-Date.
    EXPECT_EQ(v[i]["duplicate_of"]["event_id"], "<urn:uuid:1>");
    EXPECT_EQ(v[i]["duplicate_of"]["url"], "https://a.example/plain");
    EXPECT_EQ(v[i]["duplicate_of"]["event_time"], "2024-05-01T12:00:00Z");
  }
  EXPECT_EQ(v[0]["fingerprints"]["content"], v[1]["fingerprints"]["content"]);
  EXPECT_EQ(v[0]["fingerprints"]["payload"], fingerprint::PayloadDigest(html));
  EXPECT_EQ(v[1]["fingerprints"]["payload"], fingerprint::PayloadDigest(gz));
  EXPECT_EQ(v[2]["fingerprints"]["payload"], fingerprint::PayloadDigest(Chunked(br, 500)));
  EXPECT_EQ(v[2]["event_time"], "2024-05-03T12:00:00Z");
}

TEST(DedupWarcTest, BrokenRecordsAreDeadLettersWithOffsetAndReasonAndTheRestIsDecided) {
  TempDir dir;
  auto page = [](int n) { return HtmlPage(n); };
  const std::string good1 = Response("https://a.example/1", "<urn:uuid:g1>", {}, page(1));
  std::string cut = Response("https://a.example/2", "<urn:uuid:cut>", {}, page(2));
  cut.resize(cut.size() / 2);
  WarcRecordSpec no_uri;
  no_uri.target_uri = "";
  no_uri.block = HttpResponseBlock(200, {}, page(3));
  const std::string missing_uri = GzipMember(WarcRecordBytes(no_uri));
  WarcRecordSpec not_http;
  not_http.target_uri = "https://a.example/4";
  not_http.block = "220 ftp.example.com FTP server ready\r\n";
  const std::string non_http = GzipMember(WarcRecordBytes(not_http));
  WarcRecordSpec liar;
  liar.target_uri = "https://a.example/5";
  liar.block = HttpResponseBlock(200, {}, page(5));
  liar.content_length = static_cast<long long>(liar.block.size()) + 7;
  const std::string lying = GzipMember(WarcRecordBytes(liar));
  WarcRecordSpec big;
  big.target_uri = "https://a.example/6";
  big.block = HttpResponseBlock(200, {}, std::string(5000, 'x'));
  const std::string oversized = GzipMember(WarcRecordBytes(big));
  const std::string good2 = Response("https://a.example/7", "<urn:uuid:g2>", {}, page(7));
  const std::string parts[] = {good1, cut, missing_uri, non_http, lying, oversized, good2};
  std::string file;
  std::vector<size_t> offsets;
  for (const std::string& p : parts) {
    offsets.push_back(file.size());
    file += p;
  }
  WriteFile(dir.File("bad.warc.gz"), file);
  ProcessResult r = RunPagesieve({"dedup", "-q", "--set", "warc.max_record_bytes=4096", "--input",
                                  dir.File("bad.warc.gz"), "--output", dir.File("out.jsonl"),
                                  "--dlq", dir.File("dlq.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<Json> v = Lines(ReadFile(dir.File("out.jsonl")));
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0]["event_id"], "<urn:uuid:g1>");
  EXPECT_EQ(v[1]["event_id"], "<urn:uuid:g2>");
  const std::vector<Json> dead = Lines(ReadFile(dir.File("dlq.jsonl")));
  ASSERT_EQ(dead.size(), 5u);
  const char* const reasons[] = {"gzip member", "WARC-Target-URI", "not an HTTP response",
                                 "Content-Length", "max_record_bytes"};
  for (size_t i = 0; i < dead.size(); ++i) {
    EXPECT_EQ(dead[i]["file"], dir.File("bad.warc.gz"));
    EXPECT_EQ(dead[i]["offset"], offsets[i + 1]) << i;
    EXPECT_THAT(dead[i]["error"].get<std::string>(), HasSubstr(reasons[i])) << i;
    EXPECT_TRUE(dead[i].contains("record_base64"));
  }
}

TEST(DedupWarcTest, ARunWhereNothingParsesSaysSoAndFails) {
  TempDir dir;
  WarcRecordSpec not_http;
  not_http.block = "not http\r\n";
  WriteFile(dir.File("x.warc"), WarcRecordBytes(not_http) + WarcRecordBytes(not_http));
  ProcessResult r = RunPagesieve({"dedup", "-q", "--input", dir.File("x.warc"), "--output",
                                  dir.File("out.jsonl"), "--dlq", dir.File("dlq.jsonl")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("all 2 records are dead letters"));
  EXPECT_EQ(Lines(ReadFile(dir.File("dlq.jsonl"))).size(), 2u);
}

TEST(DedupWarcTest, AFileThatIsNeitherWarcNorJsonlIsRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  WriteFile(dir.File("page.html"), "<html>hello</html>\n");
  ProcessResult r = RunPagesieve({"dedup", "-q", "--input", dir.File("page.html"), "--output",
                                  dir.File("out.jsonl"), "--state-dir", dir.File("state")});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("'" + dir.File("page.html") + "' is neither WARC nor JSONL"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  EXPECT_FALSE(std::filesystem::exists(dir.File("out.jsonl")));
  EXPECT_FALSE(std::filesystem::exists(dir.File("state")));
}

// A crawl dump whose first line is damaged is JSONL with one dead letter,
// not a file of another format: the daemon fixture's partition files start
// with a malformed line as often as not.
TEST(DedupWarcTest, AJsonlFileWhoseFirstLineIsDamagedIsStillJsonl) {
  TempDir dir;
  const Json event = {{"url", "https://example.com/a"},
                      {"fetched_at", "2026-01-01T00:00:00Z"},
                      {"status", 200},
                      {"content_type", "text/html"},
                      {"body", HtmlPage(3)}};
  WriteFile(dir.File("in.jsonl"), "this is not an event\n" + event.dump() + "\n");
  ProcessResult r = RunPagesieve({"dedup", "-q", "--input", dir.File("in.jsonl"), "--output",
                                  dir.File("out.jsonl"), "--dlq", dir.File("dlq.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Lines(ReadFile(dir.File("out.jsonl"))).size(), 1u);
  EXPECT_EQ(Lines(ReadFile(dir.File("dlq.jsonl"))).size(), 1u);

  // The same through a pipe, which only shows its first byte.
  ProcessResult piped = RunPagesieve({"dedup", "-q"}, ReadFile(dir.File("in.jsonl")));
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(Lines(piped.out).size(), 1u);
}

TEST(DedupWarcTest, WarcFromStdinAndTheFormatForced) {
  const std::string warc = WarcRecordBytes([] {
    WarcRecordSpec s;
    s.block = HttpResponseBlock(200, {{"Content-Type", "text/html"}}, HtmlPage(4));
    return s;
  }());
  ProcessResult piped = RunPagesieve({"dedup", "-q"}, warc);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(Lines(piped.out).at(0)["url"], "https://example.com/");
  // Forced to JSONL, the same bytes are lines that are not events.
  ProcessResult forced = RunPagesieve({"dedup", "-q", "--input-format", "jsonl"}, warc);
  EXPECT_NE(forced.exit_code, 0);
  EXPECT_THAT(forced.err, HasSubstr("dead letters"));
}

}  // namespace
}  // namespace pagesieve::testing
