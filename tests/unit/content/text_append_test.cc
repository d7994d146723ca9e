#include "content/text_append.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "content/html_entities.h"

namespace pagesieve::content {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

bool StartsWithWideComma(std::string_view s) {
  return s.starts_with("\xD8\x8C") || s.starts_with("\xE3\x80\x81") ||
         s.starts_with("\xEF\xBC\x8C");
}

uint32_t CodePoints(std::string_view s) {
  uint32_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// What AppendCollapsedText must do, one byte at a time and nothing clever.
void ReferenceAppend(std::string_view raw, bool* after_space, std::string* out,
                     TextStats* stats) {
  const size_t start = out->size();
  size_t i = 0;
  while (i < raw.size()) {
    const char c = raw[i];
    if (IsSpace(c)) {
      if (!*after_space) {
        out->push_back(' ');
        ++stats->chars;
      }
      *after_space = true;
      ++i;
      continue;
    }
    if (c == '\0') {
      ++i;
      continue;
    }
    const size_t before = out->size();
    if (c == '&') {
      size_t used = DecodeCharacterReference(raw.substr(i), /*in_attribute=*/false, out);
      if (used == 0) {
        out->push_back('&');
        used = 1;
      }
      stats->commas += std::string_view(*out).substr(before) == ",";
      i += used;
    } else {
      stats->commas += c == ',' || StartsWithWideComma(raw.substr(i));
      out->push_back(c);
      ++i;
    }
    stats->chars += CodePoints(std::string_view(*out).substr(before));
    *after_space = false;
  }
  stats->bytes += static_cast<uint32_t>(out->size() - start);
}

// Text built from pieces that each take a different path, long enough that
// runs cross the 16-byte blocks the fast path reads.
std::string RandomText(std::mt19937_64& rng) {
  static const std::vector<std::string> kPieces = {
      "a",  "Word", "plain text that runs on for a while", "\xC3\xA9", "\xE6\x97\xA5\xE6\x9C\xAC",
      " ",  "\t",   "\n    ", "  \r\n\f ", ",", "\xD8\x8C", "\xE3\x80\x81", "\xEF\xBC\x8C",
      "\xEF\xBD\x80", "\xD8\xA7", "\xE3\x81\x82", "&amp;", "&#44;", "&nbsp;", "&", "&bogus;",
      std::string(1, '\0'), "\x01", "\x7F", "\x1F"};
  std::string text;
  const size_t pieces = rng() % 40;
  for (size_t p = 0; p < pieces; ++p) text += kPieces[rng() % kPieces.size()];
  return text;
}

TEST(AppendCollapsedTextTest, DoesWhatTheByteAtATimeReferenceDoes) {
  std::mt19937_64 rng(24);
  for (int round = 0; round < 20000; ++round) {
    const std::string raw = RandomText(rng);
    const bool starts_after_space = rng() % 2 == 0;
    const std::string prefix = starts_after_space ? "x " : "x";
    std::string want = prefix;
    std::string got = prefix;
    bool want_space = starts_after_space;
    bool got_space = starts_after_space;
    TextStats want_stats;
    TextStats got_stats;
    ReferenceAppend(raw, &want_space, &want, &want_stats);
    AppendCollapsedText(raw, &got_space, &got, &got_stats);
    ASSERT_EQ(got, want) << "input: " << raw;
    ASSERT_EQ(got_space, want_space) << "input: " << raw;
    ASSERT_EQ(got_stats.bytes, want_stats.bytes) << "input: " << raw;
    ASSERT_EQ(got_stats.chars, want_stats.chars) << "input: " << raw;
    ASSERT_EQ(got_stats.commas, want_stats.commas) << "input: " << raw;
  }
}

TEST(AppendCollapsedTextTest, CountsTheCodePointsAndCommasOfALongRun) {
  // 3 x 17 code points of Japanese (3 bytes each) between two wide commas,
  // a run far longer than one block.
  std::string run;
  for (int i = 0; i < 51; ++i) run += "\xE6\x97\xA5";
  const std::string raw = "\xEF\xBC\x8C" + run + "\xE3\x80\x81  x";
  std::string out;
  bool after_space = true;
  TextStats stats;
  AppendCollapsedText(raw, &after_space, &out, &stats);
  EXPECT_EQ(out, "\xEF\xBC\x8C" + run + "\xE3\x80\x81 x");
  EXPECT_EQ(stats.chars, 1u + 51u + 1u + 2u);
  EXPECT_EQ(stats.commas, 2u);
  EXPECT_EQ(stats.bytes, out.size());
  EXPECT_FALSE(after_space);
}

}  // namespace
}  // namespace pagesieve::content
