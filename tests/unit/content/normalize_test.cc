#include <gtest/gtest.h>
#include <utf8proc.h>

#include <random>
#include <string>

#include "content/content.h"
#include "content/utf8.h"

namespace pagesieve::content {
namespace {

std::string N(std::string_view text, bool mask_numbers = false) {
  NormalizeOptions options;
  options.mask_numbers = mask_numbers;
  return NormalizeForHashing(text, options);
}

TEST(NormalizeTest, AsciiIsLowercasedAndWhitespaceCollapsed) {
  EXPECT_EQ(N("  Hello,\t\tWORLD \n\r again  "), "hello, world again");
  EXPECT_EQ(N(""), "");
  EXPECT_EQ(N(" \n\t "), "");
}

TEST(NormalizeTest, CompatibilityFormsAreFolded) {
  EXPECT_EQ(N("\xEF\xAC\x81nd"), "find");                       // U+FB01 ligature fi
  EXPECT_EQ(N("\xEF\xBC\xA1\xEF\xBC\xA2\xEF\xBC\xA3"), "abc");  // fullwidth ABC
  EXPECT_EQ(N("x\xE2\x91\xA0"), "x1");                          // circled digit one
  EXPECT_EQ(N("\xE2\x80\xA6"), "...");                          // horizontal ellipsis
}

TEST(NormalizeTest, CaseIsFoldedBeyondAscii) {
  EXPECT_EQ(N("Stra\xC3\x9F"
              "e"),
            "strasse");
  EXPECT_EQ(N("\xC3\x89"
              "COLE"),
            "\xC3\xA9"
            "cole");
  EXPECT_EQ(N("\xCE\xA3\xCE\x9F\xCE\xA6"), "\xCF\x83\xCE\xBF\xCF\x86");  // ΣΟΦ → σοφ
}

TEST(NormalizeTest, DecomposedAndComposedFormsNormalizeAlike) {
  EXPECT_EQ(N("e\xCC\x81t\xC3\xA9"), N("\xC3\xA9t\xC3\xA9"));
}

TEST(NormalizeTest, UnicodeSpacesCollapseWithAscii) {
  // NBSP, em space, ideographic space, line separator.
  EXPECT_EQ(N("a\xC2\xA0\xC2\xA0"
              "b\xE2\x80\x83"
              "c\xE3\x80\x80"
              "d\xE2\x80\xA8"
              "e"),
            "a b c d e");
}

TEST(NormalizeTest, InvisibleCharactersAreDropped) {
  EXPECT_EQ(N("co\xC2\xAD"
              "op\xE2\x80\x8B"
              "eration"),
            "cooperation");  // soft hyphen, ZWSP
}

TEST(NormalizeTest, InvalidUtf8IsReplaced) {
  EXPECT_EQ(N("A\xFF"
              "B"),
            "a\xEF\xBF\xBD"
            "b");
}

TEST(NormalizeTest, AsciiFastPathAgreesWithUtf8proc) {
  std::mt19937 rng(3);
  for (int round = 0; round < 300; ++round) {
    std::string s(rng() % 60, ' ');
    for (char& c : s) c = static_cast<char>(0x20 + rng() % 0x5F);
    // Without digits, normalization is NFKC_Casefold plus whitespace collapse.
    for (char& c : s) {
      if (c >= '0' && c <= '9') c = 'x';
    }
    utf8proc_uint8_t* folded =
        utf8proc_NFKC_Casefold(reinterpret_cast<const utf8proc_uint8_t*>(s.c_str()));
    std::string expected;
    bool space = true;
    for (const char* p = reinterpret_cast<const char*>(folded); *p; ++p) {
      if (*p == ' ') {
        if (!space) expected.push_back(' ');
        space = true;
      } else {
        expected.push_back(*p);
        space = false;
      }
    }
    if (!expected.empty() && expected.back() == ' ') expected.pop_back();
    free(folded);
    EXPECT_EQ(N(s), expected) << s;
  }
}

// utf8proc's NFKC_Casefold of the whole text, whitespace (Unicode spaces and
// controls) collapsed: what normalization must equal on digit-free text.
std::string Reference(const std::string& s) {
  utf8proc_uint8_t* folded =
      utf8proc_NFKC_Casefold(reinterpret_cast<const utf8proc_uint8_t*>(s.c_str()));
  std::string out;
  bool space = true;
  const utf8proc_uint8_t* p = folded;
  while (*p) {
    utf8proc_int32_t cp;
    p += utf8proc_iterate(p, -1, &cp);
    const auto cat = utf8proc_category(cp);
    if (cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP ||
        cat == UTF8PROC_CATEGORY_CC) {
      if (!space) out.push_back(' ');
      space = true;
    } else {
      AppendCodePoint(static_cast<uint32_t>(cp), &out);
      space = false;
    }
  }
  free(folded);
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

TEST(NormalizeTest, MixedScriptTextMatchesWholeTextNfkcCasefold) {
  // Code points where splitting the text could go wrong: combining marks
  // after ASCII letters, Latin-1, ligatures, fullwidth forms, Hangul jamo
  // (which compose), Greek final sigma, spaces and ignorables.
  const uint32_t points[] = {'a',   'E',    'z',    ' ',    '\t',   0x301,  0x308,  0x327,  0xC9,
                             0xDF,  0xA0,   0xAD,   0xFB01, 0xFF21, 0x1100, 0x1161, 0x11A8, 0x3A3,
                             0x3C2, 0x200B, 0x2000, 0x4E2D, 0x130,  0x1E9E, 0x2126, 0x212B, '.'};
  std::mt19937 rng(9);
  for (int round = 0; round < 500; ++round) {
    std::string s;
    for (int i = rng() % 24; i > 0; --i) AppendCodePoint(points[rng() % std::size(points)], &s);
    EXPECT_EQ(N(s), Reference(s)) << s;
  }
}

TEST(NormalizeTest, NormalizingTwiceChangesNothing) {
  std::mt19937 rng(5);
  const char* pieces[] = {"A",   "b",   " ", "\t", "\xC3\x89",   "\xEF\xAC\x81", "\xC2\xA0",
                          "7",   ":",   "-", ".",  "2012-05-31", "10:30",        "\xE2\x80\x8B",
                          "Mai", "31. "};
  for (int round = 0; round < 300; ++round) {
    std::string s;
    for (int i = rng() % 30; i > 0; --i) s += pieces[rng() % std::size(pieces)];
    const std::string once = N(s);
    EXPECT_EQ(N(once), once) << s;
    EXPECT_EQ(ValidUtf8PrefixLength(once), once.size());
  }
}

TEST(NormalizeTest, NumericDatesAreMasked) {
  EXPECT_EQ(N("Published 2012-05-31 by x"), "published <date> by x");
  EXPECT_EQ(N("am 31.05.2012 und 1. 6. 2012"), "am <date> und <date>");
  EXPECT_EQ(N("on 5/31/12, and 2012/5/31."), "on <date>, and <date>.");
  EXPECT_EQ(N("2024-01-02T10:30:00Z"), "<date>");
  EXPECT_EQ(N("2024-01-02T10:30:00.250+02:00 next"), "<date> next");
}

TEST(NormalizeTest, NamedMonthDatesAreMasked) {
  EXPECT_EQ(N("31 May 2012"), "<date>");
  EXPECT_EQ(N("May 31, 2012 at noon"), "<date> at noon");
  EXPECT_EQ(N("Updated: March 2021"), "updated: <date>");
  EXPECT_EQ(N("Am 31. Mai 2012 schrieb"), "am <date> schrieb");
  EXPECT_EQ(N("le 14 juillet"), "le <date>");
  EXPECT_EQ(N("3. M\xC3\xA4rz 2020"), "<date>");
}

TEST(NormalizeTest, ClockTimesAreMasked) {
  EXPECT_EQ(N("at 10:30, then 9:05:59"), "at <time>, then <time>");
  EXPECT_EQ(N("10:30 PM and 7pm and 7 a.m."), "<time> and <time> and <time>");
  EXPECT_EQ(N("um 14.30 Uhr"), "um <time>");
  EXPECT_EQ(N("31.05.2012 14:30"), "<date> <time>");
}

TEST(NormalizeTest, RelativeTimesAreMasked) {
  EXPECT_EQ(N("posted 5 minutes ago"), "posted <time>");
  EXPECT_EQ(N("vor 3 Stunden"), "vor <time>");
}

TEST(NormalizeTest, OtherNumbersAreKeptByDefault) {
  EXPECT_EQ(N("An A380 has 4 engines, 3.14 and 1,000 and v1.2.3 and 12345"),
            "an a380 has 4 engines, 3.14 and 1,000 and v1.2.3 and 12345");
  EXPECT_EQ(N("version 1.2.3 here"), "version 1.2.3 here");
  EXPECT_EQ(N("you may 2x that, 14.30 alone"), "you may 2x that, 14.30 alone");
}

TEST(NormalizeTest, MaskNumbersMasksEveryNumber) {
  EXPECT_EQ(N("4 engines, 3.14 and 1,000 on 2012-05-31", true),
            "<num> engines, <num> and <num> on <date>");
  EXPECT_EQ(N("A380", true), "a380");  // digits inside a word are part of the word
}

TEST(NormalizeTest, FullwidthDigitsAreMaskedAfterFolding) {
  EXPECT_EQ(N("\xEF\xBC\x92\xEF\xBC\x90\xEF\xBC\x92\xEF\xBC\x94-01-02"), "<date>");
}

TEST(NormalizeTest, HugeAndHostileInputStaysLinear) {
  // Long runs of digits and separators that start many partial matches.
  std::string s;
  for (int i = 0; i < 200000; ++i) s += "1.1.";
  s += std::string(200000, '9');
  const std::string out = N(s);
  EXPECT_FALSE(out.empty());
}

}  // namespace
}  // namespace pagesieve::content
