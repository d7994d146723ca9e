#include "warc/response_page.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fingerprint/digests.h"
#include "warc/payload_decoding.h"
#include "warc_writer.h"

namespace pagesieve::warc {
namespace {

using ::testing::HasSubstr;
using testing::HttpResponseBlock;
using testing::WarcRecordBytes;
using testing::WarcRecordSpec;

constexpr size_t kMax = 8 << 20;

std::string RecordWith(std::vector<std::pair<std::string, std::string>> headers,
                       const std::string& payload, WarcRecordSpec spec = {}) {
  spec.block = HttpResponseBlock(200, headers, payload);
  const std::string bytes = WarcRecordBytes(spec);
  return bytes.substr(0, bytes.size() - 4);  // as the reader hands it over
}

TEST(ResponsePage, ReadsTheFieldsAPageEventNeeds) {
  WarcRecordSpec spec;
  spec.target_uri = "<https://example.com/a>";  // WARC/1.0 writers (wget) put brackets
  spec.record_id = "<urn:uuid:abc>";
  spec.date = "2024-05-01T12:00:00Z";
  StatusOr<ResponsePage> page =
      ReadResponsePage(RecordWith({{"Content-Type", "text/html; charset=utf-8"}}, "<p>hi</p>", spec), kMax);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_EQ(page->target_uri, "https://example.com/a");
  EXPECT_EQ(page->record_id, "<urn:uuid:abc>");
  EXPECT_EQ(page->date, "2024-05-01T12:00:00Z");
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->content_type, "text/html; charset=utf-8");
  EXPECT_EQ(page->body, "<p>hi</p>");
  EXPECT_EQ(page->payload_digest, fingerprint::PayloadDigest("<p>hi</p>"));
}

// The same page stored four ways decodes to one body; the payload digest
// stays over what is stored, as WARC writers compute it.
TEST(ResponsePage, DecodesEncodingsButDigestsThePayloadAsStored) {
  const std::string html = testing::HtmlPage(1);
  const std::vector<std::pair<std::string, std::string>> stored[] = {
      {{"Content-Type", "text/html"}},
      {{"Content-Encoding", "gzip"}},
      {{"Content-Encoding", "deflate"}},
      {{"Content-Encoding", "br"}},
      {{"Transfer-Encoding", "chunked"}},
      {{"Transfer-Encoding", "chunked"}, {"Content-Encoding", "gzip"}}};
  const std::string payloads[] = {html,
                                  testing::GzipMember(html),
                                  testing::ZlibCompress(html),
                                  testing::BrotliCompress(html),
                                  testing::Chunked(html, 100),
                                  testing::Chunked(testing::GzipMember(html), 64)};
  for (size_t i = 0; i < std::size(payloads); ++i) {
    StatusOr<ResponsePage> page = ReadResponsePage(RecordWith(stored[i], payloads[i]), kMax);
    ASSERT_TRUE(page.ok()) << i << ": " << page.status().ToString();
    EXPECT_EQ(page->body, html) << i;
    EXPECT_EQ(page->payload_digest, fingerprint::PayloadDigest(payloads[i])) << i;
  }
}

TEST(ResponsePage, ABodyThatDoesNotDecodeIsTakenAsStored) {
  StatusOr<ResponsePage> page =
      ReadResponsePage(RecordWith({{"Content-Encoding", "gzip"}}, "<p>plain after all</p>"), kMax);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->body, "<p>plain after all</p>");
}

TEST(ResponsePage, ADecodedBodyStopsAtTheLimit) {
  const std::string zeros(1 << 20, '0');  // a megabyte that compresses to a kilobyte
  StatusOr<ResponsePage> page =
      ReadResponsePage(RecordWith({{"Content-Encoding", "gzip"}}, testing::GzipMember(zeros)), 5000);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->body.size(), 5000u);
}

TEST(ResponsePage, ANonHttpPayloadIsRefused) {
  WarcRecordSpec spec;
  spec.block = "not http at all\r\n";
  const std::string bytes = WarcRecordBytes(spec);
  StatusOr<ResponsePage> page = ReadResponsePage(bytes, kMax);
  ASSERT_FALSE(page.ok());
  EXPECT_THAT(page.status().message(), HasSubstr("not an HTTP response"));
}

TEST(ResponsePage, ARecordWithoutTargetUriIsRefused) {
  WarcRecordSpec spec;
  spec.target_uri = "";
  StatusOr<ResponsePage> page = ReadResponsePage(RecordWith({}, "x", spec), kMax);
  ASSERT_FALSE(page.ok());
  EXPECT_THAT(page.status().message(), HasSubstr("WARC-Target-URI"));
}

TEST(Dechunk, RefusesWhatIsNotChunked) {
  EXPECT_FALSE(Dechunk("<html>").ok());
  EXPECT_FALSE(Dechunk("ff\r\nshort\r\n0\r\n\r\n").ok());
  StatusOr<std::string> ok = Dechunk("3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, "abcde");
}

// A one-member gzip body is decoded whole (libdeflate); anything else by
// streaming (zlib): the results must be those the streaming alone gave.
TEST(DecodeContent, AGzipBodyOfSeveralMembersIsDecodedAll) {
  const std::string body = testing::GzipMember("<p>one</p>") + testing::GzipMember("<p>two</p>");
  StatusOr<std::string> out = DecodeContent("gzip", body, kMax);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, "<p>one</p><p>two</p>");
}

TEST(DecodeContent, AGzipBodyWhoseLengthTrailerLiesDoesNotDecode) {
  std::string body = testing::GzipMember("<p>a page</p>");
  body[body.size() - 4] = static_cast<char>(body[body.size() - 4] - 1);  // ISIZE, little-endian
  EXPECT_FALSE(DecodeContent("gzip", body, kMax).ok());
}

TEST(DecodeContent, AGzipBodyOverTheLimitIsCutThere) {
  const std::string body = testing::GzipMember(std::string(10000, 'a'));
  StatusOr<std::string> out = DecodeContent("gzip", body, 100);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(*out, std::string(100, 'a'));
}

TEST(DecodeContent, AnUnknownEncodingIsNamed) {
  StatusOr<std::string> out = DecodeContent("compress", "x", kMax);
  ASSERT_FALSE(out.ok());
  EXPECT_THAT(out.status().message(), HasSubstr("compress"));
}

}  // namespace
}  // namespace pagesieve::warc
