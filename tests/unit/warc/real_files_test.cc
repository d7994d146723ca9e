// WARC files written by real crawlers and proxies (tests/data/warc/SOURCES.md).
#include <gtest/gtest.h>

#include <map>

#include "common/hex.h"
#include "fingerprint/base32.h"
#include "read_all.h"
#include "warc/header_fields.h"
#include "warc/response_page.h"

namespace pagesieve::warc {
namespace {

std::map<std::string, int> TypeCounts(const std::vector<WarcRecord>& records) {
  std::map<std::string, int> counts;
  for (const WarcRecord& r : records) {
    EXPECT_TRUE(r.ok()) << r.offset << ": " << r.problem;
    ++counts[r.type];
  }
  return counts;
}

TEST(RealWarcFiles, EveryRecordIsRead) {
  using Counts = std::map<std::string, int>;
  EXPECT_EQ(TypeCounts(ReadAll(ReadFileBytes(RealWarc("example.warc.gz")))),
            (Counts{{"warcinfo", 2}, {"response", 1}, {"request", 2}, {"revisit", 1}}));
  EXPECT_EQ(TypeCounts(ReadAll(ReadFileBytes(RealWarc("example-iana.org-chunked.warc")))),
            (Counts{{"warcinfo", 1}, {"response", 1}, {"request", 1}}));
  EXPECT_EQ(TypeCounts(ReadAll(ReadFileBytes(RealWarc("example-wget-bad-target-uri.warc.gz")))),
            (Counts{{"warcinfo", 1}, {"request", 1}, {"response", 1}, {"metadata", 1},
                    {"resource", 2}}));
  EXPECT_EQ(TypeCounts(ReadAll(ReadFileBytes(RealWarc("post-test.warc.gz")))),
            (Counts{{"response", 3}, {"request", 3}}));
}

// Each offset is where the record's gzip member starts: the file read from
// there begins with the record.
TEST(RealWarcFiles, OffsetsPointAtTheRecordsMembers) {
  const std::string file = ReadFileBytes(RealWarc("example.warc.gz"));
  const std::vector<WarcRecord> all = ReadAll(file);
  ASSERT_EQ(all.size(), 6u);
  for (const WarcRecord& r : all) {
    const std::vector<WarcRecord> from = ReadAll(file.substr(static_cast<size_t>(r.offset)));
    ASSERT_FALSE(from.empty());
    EXPECT_EQ(from.front().bytes, r.bytes) << r.offset;
  }
}

// "sha1:<base32>" or, as warcprox 1.4 wrote it, "sha1:<base16>": the SHA-1
// in our form.
std::string InBase32(std::string_view digest) {
  std::string_view value = digest.substr(5);
  if (value.size() != 40) return std::string(digest);
  std::string raw;
  for (size_t i = 0; i < 40; i += 2) {
    raw.push_back(static_cast<char>(std::stoi(std::string(value.substr(i, 2)), nullptr, 16)));
  }
  return "sha1:" + fingerprint::Base32Encode(raw);
}

TEST(RealWarcFiles, OurPayloadDigestIsTheOneTheWriterRecorded) {
  int compared = 0;
  for (const char* name : {"example.warc.gz", "example-iana.org-chunked.warc",
                           "example-wget-bad-target-uri.warc.gz", "post-test.warc.gz"}) {
    for (const WarcRecord& r : ReadAll(ReadFileBytes(RealWarc(name)))) {
      if (r.type != "response") continue;
      StatusOr<ResponsePage> page = ReadResponsePage(r.bytes, 8 << 20);
      ASSERT_TRUE(page.ok()) << name << ": " << page.status().ToString();
      std::optional<HeaderSplit> split = SplitHeader(r.bytes);
      StatusOr<HeaderFields> fields = HeaderFields::Parse(split->fields);
      ASSERT_TRUE(fields.ok());
      const std::optional<std::string_view> recorded = fields->Get("WARC-Payload-Digest");
      ASSERT_TRUE(recorded.has_value()) << name;
      EXPECT_EQ(page->payload_digest, InBase32(*recorded)) << name << " at " << r.offset;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 6);
}

TEST(RealWarcFiles, AGzipEncodedResponseDecodesToItsPage) {
  for (const WarcRecord& r : ReadAll(ReadFileBytes(RealWarc("example.warc.gz")))) {
    if (r.type != "response") continue;
    StatusOr<ResponsePage> page = ReadResponsePage(r.bytes, 8 << 20);
    ASSERT_TRUE(page.ok());
    EXPECT_EQ(page->target_uri, "http://example.com/");
    EXPECT_NE(page->body.find("<title>Example Domain</title>"), std::string::npos);
  }
}

TEST(RealWarcFiles, AChunkedResponseIsDechunked) {
  for (const WarcRecord& r : ReadAll(ReadFileBytes(RealWarc("example-iana.org-chunked.warc")))) {
    if (r.type != "response") continue;
    StatusOr<ResponsePage> page = ReadResponsePage(r.bytes, 8 << 20);
    ASSERT_TRUE(page.ok());
    EXPECT_TRUE(page->body.starts_with("<!doctype html>") || page->body.starts_with("<!DOCTYPE"))
        << page->body.substr(0, 40);
    EXPECT_NE(page->body.find("</html>"), std::string::npos);
  }
}

}  // namespace
}  // namespace pagesieve::warc
