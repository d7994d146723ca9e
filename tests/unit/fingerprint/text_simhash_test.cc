#include "fingerprint/text_simhash.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fingerprint/simhash.h"
#include "random_text.h"

namespace pagesieve::fingerprint {
namespace {

using testing::RandomText;

TextSimHasher::Result ComputeOne(TextSimHasher& hasher, std::string_view body,
                                 std::vector<std::string_view> emphasized = {}) {
  std::string_view blocks[] = {body};
  return hasher.Compute(blocks, emphasized);
}

uint64_t SimHashOf(std::string_view body, std::vector<std::string_view> emphasized = {},
                   SimHashOptions options = {}) {
  TextSimHasher hasher(options);
  TextSimHasher::Result result = ComputeOne(hasher, body, emphasized);
  EXPECT_TRUE(result.simhash.has_value()) << "too few tokens: " << result.tokens;
  return result.simhash.value_or(0);
}

// Mean distance after replacing `edits` random words of a random text.
double MeanDistanceAfterEdits(size_t words, int edits, int trials, uint64_t seed) {
  RandomText random(seed);
  double total = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<std::string> text = random.WordList(words);
    uint64_t before = SimHashOf(RandomText::Join(text));
    for (int e = 0; e < edits; ++e) text[random.Index(words)] = random.Word();
    total += HammingDistance(before, SimHashOf(RandomText::Join(text)));
  }
  return total / trials;
}

TEST(TextSimHasherTest, IdenticalTextsHaveIdenticalSimHashes) {
  RandomText random(1);
  std::string text = random.Text(300);
  EXPECT_EQ(SimHashOf(text), SimHashOf(std::string(text)));
}

// Cosine similarity 495/498 of the shingle vectors predicts 64*acos(.994)/pi
// = 2.2 bits on average for one replaced word among 500.
TEST(TextSimHasherTest, OneEditedWordMovesFewBits) {
  EXPECT_LT(MeanDistanceAfterEdits(500, 1, 40, 2), 4.0);
}

TEST(TextSimHasherTest, MoreEditsMoveMoreBits) {
  EXPECT_LT(MeanDistanceAfterEdits(500, 1, 40, 3), MeanDistanceAfterEdits(500, 20, 40, 3));
}

// Unrelated texts behave like independent random 64-bit values: a distance of
// 32 on average, with a standard deviation of 4 per pair (0.28 over 200).
TEST(TextSimHasherTest, UnrelatedTextsAreAbout32BitsApart) {
  RandomText random(4);
  double total = 0;
  const int pairs = 200;
  for (int i = 0; i < pairs; ++i) {
    total += HammingDistance(SimHashOf(random.Text(300)), SimHashOf(random.Text(300)));
  }
  EXPECT_NEAR(total / pairs, 32.0, 1.0);
}

// A stability guard, not a correctness oracle: the value was computed once by
// this code (version 1). Stored SimHashes must not change across releases; if
// this fails, either undo the change or bump kFingerprintVersion and update it.
TEST(TextSimHasherTest, SimHashOfAFixedTextNeverChanges) {
  const std::string_view text =
      "the quick brown fox jumps over the lazy dog while the farmer sleeps under the old oak "
      "tree near the river bank and the children play with a red ball in the green meadow "
      "until the sun goes down behind the hills and the first stars appear in the sky above "
      "the quiet village where everyone knows the name of every dog and every cat";
  const std::string_view title = "the quick brown fox";
  EXPECT_EQ(SimHashOf(text, {title}), 0x30d60c6c0ec4e3c2ULL);
}

TEST(TextSimHasherTest, CountsTokens) {
  TextSimHasher hasher({});
  EXPECT_EQ(ComputeOne(hasher, "one two, three! 4").tokens, 4u);
}

TEST(TextSimHasherTest, TextsBelowMinTokensGetNoSimHash) {
  RandomText random(5);
  SimHashOptions options;
  options.min_tokens = 50;
  TextSimHasher hasher(options);
  TextSimHasher::Result short_text = ComputeOne(hasher, random.Text(49));
  EXPECT_EQ(short_text.tokens, 49u);
  EXPECT_FALSE(short_text.simhash.has_value());
  EXPECT_TRUE(ComputeOne(hasher, random.Text(50)).simhash.has_value());
}

TEST(TextSimHasherTest, EmptyTextGetsNoSimHashEvenWithoutMinimum) {
  SimHashOptions options;
  options.min_tokens = 0;
  TextSimHasher hasher(options);
  EXPECT_FALSE(ComputeOne(hasher, "", {"a title"}).simhash.has_value());
}

// The same sentence added to a text moves its SimHash further when it is a
// heading (weighted heading_weight) than when it is one more paragraph.
TEST(TextSimHasherTest, HeadingShinglesMoveTheHashMoreThanBodyShingles) {
  RandomText random(6);
  double as_heading = 0;
  double as_body = 0;
  for (int t = 0; t < 60; ++t) {
    std::string base = random.Text(200);
    std::string sentence = random.Text(12);
    std::string with_sentence = sentence + " " + base;
    uint64_t before = SimHashOf(base);
    as_heading += HammingDistance(before, SimHashOf(with_sentence, {sentence}));
    as_body += HammingDistance(before, SimHashOf(with_sentence));
  }
  EXPECT_GT(as_heading, 1.3 * as_body);
}

uint64_t SimHashOfBlocks(const std::vector<std::string>& blocks) {
  TextSimHasher hasher({});
  std::vector<std::string_view> views(blocks.begin(), blocks.end());
  return hasher.Compute(views, {}).simhash.value_or(0);
}

// No shingle spans two blocks, so reordering whole blocks changes nothing.
TEST(TextSimHasherTest, ShinglesDoNotSpanBlocks) {
  RandomText random(12);
  std::string a = random.Text(40);
  std::string b = random.Text(40);
  EXPECT_EQ(SimHashOfBlocks({a, b}), SimHashOfBlocks({b, a}));
  EXPECT_NE(SimHashOf(a + " " + b), SimHashOf(b + " " + a));
}

TEST(TextSimHasherTest, TokensOfAllBlocksCount) {
  TextSimHasher hasher({});
  std::string_view blocks[] = {"one two", "three", "", "four five six"};
  EXPECT_EQ(hasher.Compute(blocks, {}).tokens, 6u);
}

// A short block slipped between paragraphs (a timestamp line, a teaser) adds
// one shingle per window of its own and breaks none of its neighbours'.
TEST(TextSimHasherTest, AnInsertedShortBlockMovesLessThanTheSameWordsInline) {
  RandomText random(13);
  double as_block = 0;
  double inline_words = 0;
  for (int t = 0; t < 60; ++t) {
    std::vector<std::string> blocks;
    for (int i = 0; i < 8; ++i) blocks.push_back(random.Text(40));
    std::string inserted = random.Text(3);
    uint64_t before = SimHashOfBlocks(blocks);
    std::vector<std::string> with_block = blocks;
    with_block.insert(with_block.begin() + 4, inserted);
    std::vector<std::string> with_inline = blocks;
    with_inline[4] = inserted + " " + with_inline[4];
    as_block += HammingDistance(before, SimHashOfBlocks(with_block));
    inline_words += HammingDistance(before, SimHashOfBlocks(with_inline));
  }
  EXPECT_LT(as_block, inline_words);
}

TEST(TextSimHasherTest, TitleNotRepeatedInTheBodyStillCounts) {
  RandomText random(7);
  std::string body = random.Text(100);
  SimHashOptions options;
  options.heading_weight = 16;
  EXPECT_NE(SimHashOf(body, {"some title here"}, options), SimHashOf(body, {}, options));
}

TEST(TextSimHasherTest, ShingleSizeChangesTheHash) {
  RandomText random(8);
  std::string body = random.Text(100);
  SimHashOptions five;
  five.shingle_size = 5;
  EXPECT_NE(SimHashOf(body), SimHashOf(body, {}, five));
}

std::string RandomHanzi(RandomText& random, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    // 500 common-range ideographs: U+4E00 + index, three UTF-8 bytes each.
    uint32_t cp = 0x4E00 + static_cast<uint32_t>(random.Index(500));
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

TEST(TextSimHasherTest, ChineseCountsCharactersAsTokens) {
  RandomText random(9);
  TextSimHasher hasher({});
  EXPECT_EQ(ComputeOne(hasher, RandomHanzi(random, 120)).tokens, 120u);
}

TEST(TextSimHasherTest, ChineseWithOneCharacterChangedStaysNear) {
  RandomText random(10);
  double edited = 0;
  double unrelated = 0;
  for (int t = 0; t < 30; ++t) {
    std::string text = RandomHanzi(random, 800);
    std::string changed = text;
    changed.replace(3 * random.Index(800), 3, "中");
    edited += HammingDistance(SimHashOf(text), SimHashOf(changed));
    unrelated += HammingDistance(SimHashOf(text), SimHashOf(RandomHanzi(random, 800)));
  }
  EXPECT_LT(edited / 30, 4.0);
  EXPECT_GT(unrelated / 30, 28.0);
}

TEST(TextSimHasherTest, OneRepeatedWordIsOneFeature) {
  std::string text;
  for (int i = 0; i < 100000; ++i) text += "spam ";
  TextSimHasher hasher({});
  TextSimHasher::Result result = ComputeOne(hasher, text);
  EXPECT_EQ(result.tokens, 100000u);
  std::vector<uint64_t> shingle;
  TokenHashes three;
  AppendTokenHashes("spam spam spam", &three);
  AppendShingles(three.hashes, 3, &shingle);
  EXPECT_EQ(result.simhash, shingle.at(0));
}

TEST(TextSimHasherTest, BinaryGarbageIsHandled) {
  RandomText random(11);
  std::string garbage;
  for (int i = 0; i < 100000; ++i) garbage += static_cast<char>(random.Index(256));
  SimHashOptions options;
  options.min_tokens = 1;
  TextSimHasher hasher(options);
  TextSimHasher::Result result = ComputeOne(hasher, garbage);
  EXPECT_GT(result.tokens, 0u);
  EXPECT_TRUE(result.simhash.has_value());
}

}  // namespace
}  // namespace pagesieve::fingerprint
