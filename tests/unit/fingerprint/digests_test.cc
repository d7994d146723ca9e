#include "fingerprint/digests.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace pagesieve::fingerprint {
namespace {

std::string Hex(const std::array<uint8_t, 20>& bytes) {
  std::string out;
  char pair[3];
  for (uint8_t b : bytes) {
    std::snprintf(pair, sizeof(pair), "%02x", b);
    out += pair;
  }
  return out;
}

// FIPS 180-2 test vectors, truncated to their first 128 bits.
TEST(Sha256Digest128Test, MatchesFipsVectorsTruncated) {
  EXPECT_EQ(Sha256Digest128("abc").Hex(), "ba7816bf8f01cfea414140de5dae2223");
  EXPECT_EQ(Sha256Digest128("").Hex(), "e3b0c44298fc1c149afbf4c8996fb924");
  EXPECT_EQ(Sha256Digest128("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").Hex(),
            "248d6a61d20638b8e5c026930c3e6039");
}

TEST(Sha256Digest128Test, HashesLargeInputs) {
  EXPECT_EQ(Sha256Digest128(std::string(1'000'000, 'a')).Hex(), "cdc76e5c9914fb9281a1c7e284d73e67");
}

TEST(Sha256Digest128Test, OneByteChangesTheDigest) {
  EXPECT_NE(Sha256Digest128("hello world"), Sha256Digest128("hello world."));
}

TEST(Sha1Test, MatchesFipsVectors) {
  EXPECT_EQ(Hex(Sha1("abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Hex(Sha1("")), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
  EXPECT_EQ(Hex(Sha1("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
}

// The empty payload's digest appears in countless WARC files (revisit and
// empty-body records): a match here means we write what WARC tools write.
TEST(PayloadDigestTest, EmptyBodyMatchesWarcTooling) {
  EXPECT_EQ(PayloadDigest(""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
}

TEST(PayloadDigestTest, IsBase32OfSha1) {
  // SHA-1("abc") = a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d, in base32.
  EXPECT_EQ(PayloadDigest("abc"), "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5");
}

TEST(PayloadDigestTest, CoversBinaryBytes) {
  std::string with_nul("a\0b", 3);
  EXPECT_NE(PayloadDigest(with_nul), PayloadDigest("a"));
  EXPECT_EQ(PayloadDigest(with_nul).size(), 37u);
}

}  // namespace
}  // namespace pagesieve::fingerprint
