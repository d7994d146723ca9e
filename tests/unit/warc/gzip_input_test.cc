// GzipInput decodes most members whole (libdeflate) and streams the rest
// (zlib): whichever way a member goes, the bytes, their offsets and the
// damage reported must be the same.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "warc/byte_input.h"
#include "warc_writer.h"

namespace pagesieve::warc {
namespace {

using testing::GzipMember;
using ::testing::HasSubstr;

struct Decoded {
  std::string bytes;
  std::vector<int64_t> offsets;  // FileOffsetOf each position in `at`
  std::vector<Damage> damages;
};

// Everything `file` decodes to, read `step` bytes a call, with the file
// offsets of the decoded positions `at`.
Decoded Decode(std::string file, size_t max_whole_member, const std::vector<int64_t>& at = {},
               size_t step = 100000) {
  Decoded out;
  std::FILE* f = fmemopen(file.data(), file.size(), "rb");
  std::unique_ptr<ByteInput> input = GzipInput(f, "test", max_whole_member);
  for (;;) {
    StatusOr<size_t> n = input->Read(&out.bytes, step);
    if (!n.ok() || *n == 0) break;
  }
  for (int64_t pos : at) out.offsets.push_back(input->FileOffsetOf(pos));
  while (std::optional<Damage> d = input->NextDamage()) {
    out.damages.push_back(*d);
    input->TakeDamage();
  }
  std::fclose(f);
  return out;
}

std::string Noise(size_t n, uint32_t seed) {
  std::mt19937 random(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(random());
  return s;
}

TEST(GzipInput, MembersDecodedWholeOrStreamedGiveTheSameBytesAndOffsets) {
  const std::string a = "WARC/1.1 first\r\n" + testing::HtmlPage(1),
                    b = "WARC/1.1 second\r\n" + testing::HtmlPage(2);
  const std::string ga = GzipMember(a), gb = GzipMember(b);
  const std::vector<int64_t> at = {0, static_cast<int64_t>(a.size()) - 1,
                                   static_cast<int64_t>(a.size())};
  const Decoded whole = Decode(ga + gb, size_t{1} << 20, at);
  const Decoded streamed = Decode(ga + gb, 16, at);  // every member over the limit
  EXPECT_EQ(whole.bytes, a + b);
  EXPECT_EQ(streamed.bytes, a + b);
  EXPECT_EQ(whole.offsets, (std::vector<int64_t>{0, 0, static_cast<int64_t>(ga.size())}));
  EXPECT_EQ(streamed.offsets, whole.offsets);
}

TEST(GzipInput, AMemberLongerThanTheReadAheadIsStillDecoded) {
  // Noise does not compress: the member is over 256 KB in the file too.
  const std::string big = Noise(700 << 10, 1), small = "WARC/1.1\r\n";
  const Decoded out = Decode(GzipMember(big) + GzipMember(small), size_t{4} << 20);
  EXPECT_EQ(out.bytes, big + small);
  EXPECT_TRUE(out.damages.empty());
}

TEST(GzipInput, AMemberLargerThanTheFirstBufferIsDecoded) {
  std::string text;
  while (text.size() < (size_t{3} << 20)) text += testing::HtmlPage(static_cast<int>(text.size()));
  const Decoded out = Decode(GzipMember(text), size_t{8} << 20, {}, 1 << 16);
  EXPECT_EQ(out.bytes, text);
}

TEST(GzipInput, AnEmptyMemberIsNotTheEndOfTheFile) {
  const Decoded out = Decode(GzipMember("one") + GzipMember("") + GzipMember("two"), 1 << 20);
  EXPECT_EQ(out.bytes, "onetwo");
  EXPECT_TRUE(out.damages.empty());
}

TEST(GzipInput, AMemberWhoseLengthTrailerLiesIsDamage) {
  const std::string a = GzipMember("first record"), c = GzipMember("third record");
  std::string b = GzipMember("second record");
  b[b.size() - 4] = static_cast<char>(b[b.size() - 4] + 1);  // ISIZE, little-endian
  const Decoded out = Decode(a + b + c, 1 << 20);
  EXPECT_THAT(out.bytes, HasSubstr("first record"));
  EXPECT_THAT(out.bytes, HasSubstr("third record"));
  ASSERT_EQ(out.damages.size(), 1u);
  EXPECT_EQ(out.damages[0].file_offset, static_cast<int64_t>(a.size()));
  EXPECT_THAT(out.damages[0].reason, HasSubstr("corrupt"));
}

}  // namespace
}  // namespace pagesieve::warc
