// Broken input: each broken record comes back with its offset and reason,
// and the records after it are still read.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "read_all.h"
#include "warc_writer.h"

namespace pagesieve::warc {
namespace {

using ::testing::HasSubstr;
using testing::GzipMember;
using testing::HttpResponseBlock;
using testing::WarcRecordBytes;
using testing::WarcRecordSpec;

WarcRecordSpec Response(int n) {
  WarcRecordSpec spec;
  spec.target_uri = "https://example.com/" + std::to_string(n);
  spec.block = HttpResponseBlock(200, {{"Content-Type", "text/html"}}, testing::HtmlPage(n, 200));
  return spec;
}

std::string Gz(int n) { return GzipMember(WarcRecordBytes(Response(n))); }

TEST(DamagedInput, ATruncatedGzipMemberLosesOnlyItsRecord) {
  const std::string a = Gz(1), b = Gz(2), c = Gz(3);
  const std::string cut = b.substr(0, b.size() / 2);
  const std::vector<WarcRecord> records = ReadAll(a + cut + c);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_TRUE(records[0].ok());
  EXPECT_FALSE(records[1].ok());
  EXPECT_EQ(records[1].offset, static_cast<int64_t>(a.size()));
  EXPECT_THAT(records[1].problem, HasSubstr("gzip member at offset " + std::to_string(a.size())));
  ASSERT_TRUE(records[2].ok()) << records[2].problem;
  EXPECT_EQ(records[2].offset, static_cast<int64_t>(a.size() + cut.size()));
}

TEST(DamagedInput, AGzipFileCutInItsLastMemberSaysSo) {
  const std::string a = Gz(1), b = Gz(2);
  const std::vector<WarcRecord> records = ReadAll(a + b.substr(0, b.size() - 30));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_TRUE(records[0].ok());
  EXPECT_EQ(records[1].offset, static_cast<int64_t>(a.size()));
  EXPECT_THAT(records[1].problem, HasSubstr("truncated"));
}

TEST(DamagedInput, ACorruptGzipMemberLosesOnlyItsRecord) {
  const std::string a = Gz(1), c = Gz(3);
  std::string b = Gz(2);
  for (size_t i = 20; i < 60; ++i) b[i] = static_cast<char>(b[i] ^ 0x5a);
  const std::vector<WarcRecord> records = ReadAll(a + b + c);
  ASSERT_GE(records.size(), 3u);
  EXPECT_TRUE(records.front().ok());
  EXPECT_FALSE(records[1].ok());
  EXPECT_EQ(records[1].offset, static_cast<int64_t>(a.size()));
  ASSERT_TRUE(records.back().ok()) << records.back().problem;
  EXPECT_EQ(records.back().offset, static_cast<int64_t>(a.size() + b.size()));
}

TEST(DamagedInput, AContentLengthTooLongIsCaughtAndTheNextRecordRead) {
  WarcRecordSpec liar = Response(2);
  liar.content_length = static_cast<long long>(liar.block.size()) + 100;
  const std::string a = WarcRecordBytes(Response(1));
  const std::string b = WarcRecordBytes(liar);
  const std::vector<WarcRecord> records = ReadAll(a + b + WarcRecordBytes(Response(3)));
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[1].offset, static_cast<int64_t>(a.size()));
  EXPECT_THAT(records[1].problem, HasSubstr("Content-Length"));
  ASSERT_TRUE(records[2].ok()) << records[2].problem;
  EXPECT_EQ(records[2].offset, static_cast<int64_t>(a.size() + b.size()));
}

TEST(DamagedInput, AContentLengthTooShortIsCaughtAndTheNextRecordRead) {
  WarcRecordSpec liar = Response(2);
  liar.content_length = static_cast<long long>(liar.block.size()) - 100;
  const std::vector<WarcRecord> records =
      ReadAll(GzipMember(WarcRecordBytes(liar)) + Gz(3));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_THAT(records[0].problem, HasSubstr("Content-Length"));
  ASSERT_TRUE(records[1].ok()) << records[1].problem;
}

TEST(DamagedInput, AContentLengthPastTheEndIsATruncatedRecord) {
  WarcRecordSpec liar = Response(1);
  liar.content_length = 1 << 20;
  const std::vector<WarcRecord> records = ReadAll(WarcRecordBytes(liar));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_THAT(records[0].problem, HasSubstr("truncated"));
}

TEST(DamagedInput, AnUnreadableContentLengthIsNamed) {
  std::string bytes = WarcRecordBytes(Response(1));
  bytes.replace(bytes.find("Content-Length: ") + 16, 1, "x");
  const std::vector<WarcRecord> records = ReadAll(bytes + WarcRecordBytes(Response(2)));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_THAT(records[0].problem, HasSubstr("Content-Length"));
  EXPECT_TRUE(records[1].ok());
}

TEST(DamagedInput, BytesThatAreNotARecordAreReportedAndSkipped) {
  const std::string junk = "this is not a record\r\n";
  const std::vector<WarcRecord> records = ReadAll(junk + WarcRecordBytes(Response(1)));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_THAT(records[0].problem, HasSubstr("not a WARC record"));
  EXPECT_EQ(records[1].offset, static_cast<int64_t>(junk.size()));
  EXPECT_TRUE(records[1].ok());
}

TEST(DamagedInput, ARecordOverTheLimitIsSkippedWithoutKeepingIt) {
  WarcRecordSpec big = Response(2);
  big.block += std::string(200'000, 'x');
  RecordReaderOptions options;
  options.max_record_bytes = 100'000;
  const std::vector<WarcRecord> records =
      ReadAll(Gz(1) + GzipMember(WarcRecordBytes(big)) + Gz(3), options);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_THAT(records[1].problem, HasSubstr("max_record_bytes"));
  EXPECT_LT(records[1].bytes.size(), 1000u);  // the header only
  EXPECT_TRUE(records[2].ok()) << records[2].problem;
}

// A ByteInput that streams a record of 2 GiB without ever holding it.
class HugeRecordInput final : public ByteInput {
 public:
  explicit HugeRecordInput(int64_t block) {
    head_ = "WARC/1.1\r\nWARC-Type: response\r\nContent-Length: " + std::to_string(block) +
            "\r\n\r\n";
    tail_ = "\r\n\r\n" + WarcRecordBytes(Response(7));
    total_ = static_cast<int64_t>(head_.size()) + block + static_cast<int64_t>(tail_.size());
  }
  StatusOr<size_t> Read(std::string* out, size_t max) override {
    const size_t n = static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(max), total_ - at_));
    const int64_t head = static_cast<int64_t>(head_.size());
    const int64_t tail_start = total_ - static_cast<int64_t>(tail_.size());
    for (size_t i = 0; i < n;) {
      const int64_t p = at_ + static_cast<int64_t>(i);
      if (p < head) {
        out->push_back(head_[static_cast<size_t>(p)]);
        ++i;
      } else if (p >= tail_start) {
        out->push_back(tail_[static_cast<size_t>(p - tail_start)]);
        ++i;
      } else {
        const size_t run = static_cast<size_t>(std::min<int64_t>(tail_start - p, static_cast<int64_t>(n - i)));
        out->append(run, 'x');
        i += run;
      }
    }
    at_ += static_cast<int64_t>(n);
    peak_ = std::max(peak_, out->capacity());
    return n;
  }
  int64_t FileOffsetOf(int64_t pos) const override { return pos; }
  std::optional<Damage> NextDamage() const override { return std::nullopt; }
  void TakeDamage() override {}
  void Forget(int64_t) override {}
  static inline size_t peak_ = 0;

 private:
  std::string head_, tail_;
  int64_t total_ = 0;
  int64_t at_ = 0;
};

TEST(DamagedInput, ATwoGigabyteRecordIsStreamedOverInBoundedMemory) {
  const int64_t block = int64_t{2} << 30;
  RecordReader reader(std::make_unique<HugeRecordInput>(block), RecordReaderOptions{});
  StatusOr<std::optional<WarcRecord>> huge = reader.Next();
  ASSERT_TRUE(huge.ok() && huge->has_value());
  EXPECT_THAT((*huge)->problem, HasSubstr("2147483648 bytes is over warc.max_record_bytes"));
  StatusOr<std::optional<WarcRecord>> next = reader.Next();
  ASSERT_TRUE(next.ok() && next->has_value());
  EXPECT_TRUE((*next)->ok()) << (*next)->problem;
  const std::string head = "WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 2147483648\r\n\r\n";
  EXPECT_EQ((*next)->offset, static_cast<int64_t>(head.size()) + block + 4);
  EXPECT_LT(HugeRecordInput::peak_, size_t{16} << 20);
}

}  // namespace
}  // namespace pagesieve::warc
