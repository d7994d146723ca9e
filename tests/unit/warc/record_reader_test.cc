#include "warc/record_reader.h"

#include <gtest/gtest.h>

#include "read_all.h"
#include "warc_writer.h"

namespace pagesieve::warc {
namespace {

using testing::GzipMember;
using testing::HttpResponseBlock;
using testing::WarcRecordBytes;
using testing::WarcRecordSpec;

WarcRecordSpec Response(int n) {
  WarcRecordSpec spec;
  spec.target_uri = "https://example.com/" + std::to_string(n);
  spec.record_id = "<urn:uuid:" + std::to_string(n) + ">";
  spec.block = HttpResponseBlock(200, {{"Content-Type", "text/html"}}, testing::HtmlPage(n, 40));
  return spec;
}

TEST(RecordReader, ReadsEachRecordOfAPlainFileWithItsOffset) {
  const std::string a = WarcRecordBytes(Response(1));
  const std::string b = WarcRecordBytes(Response(2));
  const std::vector<WarcRecord> records = ReadAll(a + b);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_TRUE(records[0].ok()) << records[0].problem;
  EXPECT_EQ(records[0].offset, 0);
  EXPECT_EQ(records[1].offset, static_cast<int64_t>(a.size()));
  EXPECT_EQ(records[1].type, "response");
  EXPECT_EQ(records[1].bytes, b.substr(0, b.size() - 4));  // without the closing CRLF CRLF
  EXPECT_EQ(records[1].bytes.substr(records[1].block_start), Response(2).block);
}

TEST(RecordReader, GivesTheOffsetOfEachRecordsGzipMember) {
  const std::string a = GzipMember(WarcRecordBytes(Response(1)));
  const std::string b = GzipMember(WarcRecordBytes(Response(2)));
  const std::string c = GzipMember(WarcRecordBytes(Response(3)));
  const std::vector<WarcRecord> records = ReadAll(a + b + c);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[1].offset, static_cast<int64_t>(a.size()));
  EXPECT_EQ(records[2].offset, static_cast<int64_t>(a.size() + b.size()));
  EXPECT_EQ(records[2].bytes.substr(records[2].block_start), Response(3).block);
}

TEST(RecordReader, ReadsAWholeFileGzippedAsOneMember) {
  const std::vector<WarcRecord> records =
      ReadAll(GzipMember(WarcRecordBytes(Response(1)) + WarcRecordBytes(Response(2))));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_TRUE(records[0].ok() && records[1].ok());
}

TEST(RecordReader, ToleratesLineFeedsWithoutCarriageReturns) {
  std::string record = WarcRecordBytes(Response(1));
  const std::string block = Response(1).block;
  std::string header = record.substr(0, record.find("\r\n\r\n") + 4);
  std::string lf;
  for (char c : header) {
    if (c != '\r') lf += c;
  }
  const std::vector<WarcRecord> records = ReadAll(lf + block + "\n\n" + WarcRecordBytes(Response(2)));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_TRUE(records[0].ok()) << records[0].problem;
  EXPECT_TRUE(records[1].ok()) << records[1].problem;
}

TEST(RecordReader, AnEmptyInputHasNoRecords) { EXPECT_TRUE(ReadAll("\r\n").empty()); }

}  // namespace
}  // namespace pagesieve::warc
